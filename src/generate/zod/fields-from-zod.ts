/**
 * An operation's argument fields from a zod 4 object schema, so a tool that already declares its
 * input with zod (an MCP tool, say) gets the generators' valid, boundary and invalid values and
 * the model's validation from that one declaration. Validation equals zod's, field by field.
 *
 * How the schema is read: through `schema._zod.def`, the definition zod's guide for library
 * authors has tooling introspect, typed by `zod/v4/core` (shared by `zod` and `zod/mini`, and the
 * path zod promises to keep). Not `z.toJSONSchema`: JSON Schema drops refinements without a
 * trace, so a refined integer would read as a plain range; the definition lists them. Values are
 * judged by `safeParse` from `zod/v4/core`. The existing bridge, zod-fast-check, needs zod 3 and
 * fast-check 3, so this is the small part it would have done. This module loads zod; it is
 * reached only through the `receiptcheck/zod` entry (`src/zod.ts`), so the main entry works
 * without zod installed.
 */

import type * as z4 from 'zod/v4/core';
import { safeParse } from 'zod/v4/core';
import { ReceiptcheckError } from '../../errors.ts';
import type { ArgumentField } from '../../model/operation.ts';
import { customField, sortCandidates } from '../schema-field-rules.ts';
import { integerRuleOf } from './zod-integer.ts';
import { candidatesOf } from './zod-samples.ts';

/** A value new intents may send in a custom field. */
type Sample = number | string | boolean;

/** What `fieldsFromZod` takes besides the schema. */
export interface FieldsFromZodOptions {
  /**
   * Valid values of a field, by name: what new intents send there, tried before the values
   * derived from the schema (an integer field's `typical`). Needed where none can be derived,
   * such as a string with a lookahead pattern or a refinement nothing near its limits passes.
   * Each must pass the field's schema.
   */
  readonly samples?: Readonly<Record<string, readonly Sample[]>>;
}

/** A zod object schema, or its shape (as MCP's `server.tool` takes it). */
export type ZodArguments = z4.$ZodObject | Readonly<Record<string, z4.$ZodType>>;

/** Definition types that change the value they parse: the handler would see another value. */
const CHANGES_VALUE = new Set(['default', 'prefault', 'catch', 'transform', 'pipe']);

/**
 * The fields of `schema`, in its key order (the order validation checks them).
 * - A plain integer (`.int()` with `.positive()` or `.min(1)` and no upper limit) is an `id`.
 * - A plain integer with limits the generators can reach past is an `integer` with those limits;
 *   zod's `.int()` accepts exactly the safe integers, as the model's integer rules do.
 * - Anything else (a refined or non-integer number, strings, enums, literals, booleans, unions,
 *   optional or nullable fields) is `custom`, checked by `safeParse`, with valid and invalid
 *   samples derived from the schema. A `.refine` cannot be read, so a `!== 0` refinement gives a
 *   custom field with 0 among its invalid samples, not `nonZero`.
 *
 * Throws `E_BAD_SCHEMA` for what would make the model and a handler disagree: a default, a
 * transform, a coercion or `.trim()`-like overwrite (the handler sees the parsed value, the model
 * the sent one), a field named `requestId` (the model's own), and a field no valid value is found
 * for (pass `options.samples`). A refinement that throws or is async counts as rejecting.
 * Unknown-key policy (`.strict()`) is not applied: a request carries `requestId` beside the
 * arguments.
 */
export function fieldsFromZod(
  schema: ZodArguments,
  options: FieldsFromZodOptions = {},
): ArgumentField[] {
  const shape = shapeOf(schema);
  for (const name of Object.keys(options.samples ?? {})) {
    if (!(name in shape)) {
      throw new ReceiptcheckError(
        'E_BAD_OPTION',
        `samples names "${name}", which is not a field of the schema; fields: ${Object.keys(shape).join(', ')}`,
      );
    }
  }
  return Object.entries(shape).map(([name, field]) =>
    fieldFrom(name, field, options.samples?.[name] ?? []),
  );
}

function shapeOf(schema: ZodArguments): Readonly<Record<string, z4.$ZodType>> {
  if (isZod(schema)) {
    const def = (schema as z4.$ZodTypes)._zod.def;
    if (def.type !== 'object') {
      throw new ReceiptcheckError(
        'E_BAD_SCHEMA',
        `expected a zod object schema (z.object({...})) or its shape, got a zod ${def.type}`,
      );
    }
    return def.shape;
  }
  for (const [name, field] of Object.entries(schema)) {
    if (!isZod(field)) {
      throw new ReceiptcheckError(
        'E_BAD_SCHEMA',
        `field "${name}" is not a zod 4 schema; build it with zod 4 (import { z } from 'zod'), not zod 3`,
      );
    }
  }
  return schema as Readonly<Record<string, z4.$ZodType>>;
}

function isZod(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

function fieldFrom(name: string, schema: z4.$ZodType, given: readonly Sample[]): ArgumentField {
  if (name === 'requestId') {
    throw new ReceiptcheckError(
      'E_BAD_SCHEMA',
      'field "requestId" is the request id, which receiptcheck validates itself; leave it out of the schema (schema.omit({ requestId: true }))',
    );
  }
  refuseValueChanges(name, schema);
  const accepts = (value: unknown) => {
    try {
      return safeParse(schema, value).success;
    } catch {
      return false;
    }
  };
  const refused = given.filter((v) => !accepts(v));
  if (refused.length > 0) {
    throw new ReceiptcheckError(
      'E_BAD_OPTION',
      `samples for "${name}" must pass its schema; these do not: ${refused.map((v) => JSON.stringify(v)).join(', ')}`,
    );
  }
  const rule = integerRuleOf(schema, accepts);
  if (rule) return { name, rule, ...(given.length > 0 ? { typical: given as number[] } : {}) };
  const candidates = [...given, ...candidatesOf(schema)];
  const sorted = sortCandidates(candidates, accepts);
  checkUnchanged(name, schema, sorted.valid);
  if (sorted.valid.length === 0) {
    throw new ReceiptcheckError(
      'E_BAD_SCHEMA',
      `found no value field "${name}"'s schema accepts (a pattern or refinement beyond what can be sampled); pass some: fieldsFromZod(schema, { samples: { ${name}: [...] } })`,
    );
  }
  return customField(name, accepts, sorted);
}

/** Throws when `schema`, or an option or inner type of it, changes the value it parses. */
function refuseValueChanges(name: string, schema: z4.$ZodType): void {
  const def = (schema as z4.$ZodTypes)._zod.def;
  const overwrites = (def.checks ?? []).some(
    (c) => (c as z4.$ZodChecks)._zod.def.check === 'overwrite',
  );
  const coerces = 'coerce' in def && def.coerce === true;
  if (CHANGES_VALUE.has(def.type) || overwrites || coerces) {
    throw new ReceiptcheckError(
      'E_BAD_SCHEMA',
      `field "${name}" changes the value it parses (${overwrites ? 'an overwrite such as .trim()' : coerces ? 'coercion' : `a ${def.type === 'pipe' ? 'transform or pipe' : def.type}`}): a handler would act on the parsed value, the model on the one sent; validate the value as sent and convert it in the handler`,
    );
  }
  if ('innerType' in def) refuseValueChanges(name, def.innerType);
  if (def.type === 'union') for (const option of def.options) refuseValueChanges(name, option);
}

/** Throws when parsing a valid sample gives back another value (a change inside the schema). */
function checkUnchanged(name: string, schema: z4.$ZodType, valid: readonly Sample[]): void {
  const changed = valid.find((v) => {
    const parsed = safeParse(schema, v);
    return parsed.success && !Object.is(parsed.data, v);
  });
  if (changed !== undefined) {
    throw new ReceiptcheckError(
      'E_BAD_SCHEMA',
      `field "${name}" parses ${JSON.stringify(changed)} into another value: a handler would act on the parsed value, the model on the one sent; validate the value as sent and convert it in the handler`,
    );
  }
}
