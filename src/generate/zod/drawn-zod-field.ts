/**
 * A drawn spec's zod-derived field (`ZodDraw`, `generate/drawn-spec/spec-draw.ts`): the zod 4
 * schema the draw describes, put through the zod bridge (`fieldsFromZod`) as a user's schema
 * would be. Here because only `generate/zod/` may load zod; a drawn spec's plugin passes
 * `zodFieldOf` to `specFromDraw` when its draw has a zod field.
 */
import { z } from 'zod';
import type { ArgumentField } from '../../model/operation.ts';
import type { ZodDraw } from '../drawn-spec/spec-draw.ts';
import { fieldsFromZod } from './fields-from-zod.ts';

/** The zod schema `draw` describes. */
export function zodSchemaOf(draw: ZodDraw): z.ZodType {
  switch (draw.type) {
    case 'int': {
      let s = z.int();
      if (draw.min !== undefined) s = s.min(draw.min);
      if (draw.max !== undefined) s = s.max(draw.max);
      return s;
    }
    case 'intNotZero':
      return z
        .int()
        .min(draw.min)
        .max(draw.max)
        .refine((v) => v !== 0);
    case 'number':
      return z.number().min(draw.min).max(draw.max);
    case 'string':
      return z.string().min(draw.min).max(draw.max);
    case 'regex':
      return z.string().regex(new RegExp(draw.source));
    case 'enum':
      return z.enum(draw.values as [string, ...string[]]);
    case 'literal':
      return z.literal(draw.value);
    case 'boolean':
      return z.boolean();
    case 'optional':
      return zodSchemaOf(draw.inner).optional();
    case 'nullable':
      return zodSchemaOf(draw.inner).nullable();
    case 'union':
      return z.union(draw.options.map(zodSchemaOf) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
  }
}

/** The field `fieldsFromZod` derives from `draw`'s schema, named `name`. */
export function zodFieldOf(name: string, draw: ZodDraw): ArgumentField {
  const [field] = fieldsFromZod({ [name]: zodSchemaOf(draw) });
  if (!field) throw new Error(`the zod bridge gave no field for "${name}"`);
  return field;
}
