/**
 * `fieldsFromZod`: the rules it derives for a few schemas; validation that equals zod's on
 * generated and edge values, field by field and request by request; and the schemas it refuses,
 * with what to do. A derived spec run through the generators and the model is in
 * zod-spec-run.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import type { ArgumentField } from '../../model/operation.ts';
import { fieldHolds, invalidField } from '../../model/validate.ts';
import { edgeValues } from '../edge-values.ts';
import { fieldClassNames } from '../field-classes.ts';
import { fieldsFromZod } from './fields-from-zod.ts';
import { specOf } from './fixtures/spec-of.ts';

const rules = (fields: readonly ArgumentField[]) =>
  Object.fromEntries(fields.map((f) => [f.name, f.rule.kind === 'custom' ? 'custom' : f.rule]));

/** Schemas with every kind of field, and which rule each field must get. */
const ARGS = z.object({
  accountId: z.number().int().positive(),
  delta: z.number().int().min(-100).max(100),
  nonZero: z
    .number()
    .int()
    .min(-5)
    .max(5)
    .refine((v) => v !== 0),
  count: z.number().int().nonnegative(),
  step: z.number().int().multipleOf(5).min(0).max(100),
  ratio: z.number().min(0.5).max(2.5),
  small: z.int32(),
  digit: z.int().gt(0).lt(10),
  code: z.string().min(2).max(5),
  sku: z.string().regex(/^[A-Z]{3}-\d{2}$/),
  email: z.email(),
  currency: z.enum(['EUR', 'USD']),
  kind: z.literal(['x', 3]),
  urgent: z.boolean(),
  note: z.string().max(10).optional(),
  parent: z.number().int().positive().nullable(),
});

describe('fieldsFromZod', () => {
  const fields = fieldsFromZod(ARGS);

  it('keeps the schema key order and maps plain integers to id and integer rules', () => {
    expect(fields.map((f) => f.name)).toEqual(Object.keys(ARGS.shape));
    expect(rules(fields)).toEqual({
      accountId: { kind: 'id' },
      delta: { kind: 'integer', min: -100, max: 100 },
      // A refinement cannot be read: zod's own check, 0 among the invalid samples.
      nonZero: 'custom',
      // No upper limit: the generators' far-out-of-range values would leave the safe integers.
      count: 'custom',
      step: 'custom',
      ratio: 'custom',
      small: { kind: 'integer', min: -(2 ** 31), max: 2 ** 31 - 1 },
      digit: { kind: 'integer', min: 1, max: 9 },
      code: 'custom',
      sku: 'custom',
      email: 'custom',
      currency: 'custom',
      kind: 'custom',
      urgent: 'custom',
      note: 'custom',
      parent: 'custom',
    });
  });

  it('derives valid samples from limits, lengths, patterns and options, and invalid ones near them', () => {
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    const valid = (name: string) => {
      const rule = byName[name]?.rule;
      return rule?.kind === 'custom' ? rule.valid : [];
    };
    expect(valid('nonZero')).toEqual(expect.arrayContaining([-5, 5, 1, -1]));
    expect(valid('nonZero')).not.toContain(0);
    expect(byName.nonZero?.invalid).toEqual(expect.arrayContaining([0, -6, 6, 0.5]));
    expect(valid('code')).toEqual(['ab', 'abcde', 'abc']);
    expect(byName.code?.invalid).toEqual(expect.arrayContaining(['a', 'abcdef']));
    expect(valid('currency')).toEqual(['EUR', 'USD']);
    expect(byName.currency?.invalid).toEqual(expect.arrayContaining(['eur', 'EURx', '']));
    expect(valid('kind')).toEqual(['x', 3]);
    expect(valid('urgent')).toEqual([true, false]);
    for (const s of valid('sku')) expect(s).toMatch(/^[A-Z]{3}-\d{2}$/);
    expect(valid('sku').length).toBeGreaterThan(2);
    expect(valid('email').length).toBeGreaterThan(0);
    for (const f of fields) {
      for (const v of f.rule.kind === 'custom' ? f.rule.valid : [])
        expect(fieldHolds(f, v)).toBe(true);
      for (const v of f.invalid ?? [])
        expect(fieldHolds(f, v), `${f.name} ${String(v)}`).toBe(false);
    }
  });

  it('gives a boolean field no boolean invalid class, a nullable one no null class', () => {
    const classes = fields.flatMap(fieldClassNames);
    expect(classes).not.toContain('urgent boolean');
    expect(classes).toContain('urgent null');
    expect(classes).not.toContain('parent null');
    expect(classes).toContain('parent boolean');
    expect(classes).toContain('currency declared invalid');
  });

  it('validates every field as zod does, on arbitrary values and every edge value', () => {
    const spec = specOf('zod-fields-agreement', fields);
    const edges = edgeValues(spec);
    const values = fc.sample(
      fc.oneof(fc.anything(), fc.integer(), fc.double(), fc.string(), fc.boolean()),
      { seed: 3, numRuns: 300 },
    );
    let compared = 0;
    for (const f of fields) {
      const schema = ARGS.shape[f.name as keyof typeof ARGS.shape];
      const own = edges.classes.filter((c) => c.startsWith(`${f.name} `));
      const edgeSamples = own.flatMap((c) => fc.sample(edges.value(c), { seed: 5, numRuns: 10 }));
      const valid = f.rule.kind === 'custom' ? f.rule.valid : [];
      for (const v of [...values, ...edgeSamples, ...valid, ...(f.invalid ?? [])]) {
        expect(fieldHolds(f, v), `${f.name} ${String(v)}`).toBe(schema.safeParse(v).success);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(fields.length * 300);
  });

  it('answers a whole request invalid exactly when zod rejects it, naming the first bad field', () => {
    const spec = specOf('zod-fields-requests', fields);
    const good = Object.fromEntries(
      fields.map((f) => [f.name, f.rule.kind === 'custom' ? f.rule.valid[0] : 1]),
    );
    expect(ARGS.safeParse(good).success).toBe(true);
    const requests = fc.sample(
      fc.record({
        field: fc.constantFrom(...fields.map((f) => f.name)),
        value: fc.oneof(fc.anything(), fc.integer({ min: -200, max: 200 }), fc.string()),
      }),
      { seed: 9, numRuns: 300 },
    );
    for (const { field, value } of requests) {
      const request = { requestId: 'r1', ...good, [field]: value };
      const parsed = ARGS.safeParse(request);
      expect(invalidField(request, spec)).toBe(
        parsed.success ? undefined : String(parsed.error.issues[0]?.path[0]),
      );
    }
  });

  it('reads zod/mini schemas the same way', () => {
    const mini = zm.object({
      accountId: zm.int().check(zm.positive()),
      delta: zm.int().check(zm.minimum(-100), zm.maximum(100)),
      currency: zm.enum(['EUR', 'USD']),
    });
    expect(rules(fieldsFromZod(mini))).toEqual({
      accountId: { kind: 'id' },
      delta: { kind: 'integer', min: -100, max: 100 },
      currency: 'custom',
    });
  });

  it('takes a raw shape, as MCP tools declare their input, and samples as integer typical values', () => {
    const fromShape = fieldsFromZod(
      { accountId: z.number().int().min(1), delta: z.number().int().min(-9).max(9) },
      { samples: { delta: [-3, 4] } },
    );
    expect(fromShape).toEqual([
      { name: 'accountId', rule: { kind: 'id' } },
      { name: 'delta', rule: { kind: 'integer', min: -9, max: 9 }, typical: [-3, 4] },
    ]);
  });

  it('asks for samples where none can be derived, and takes them', () => {
    const args = z.object({ tag: z.string().regex(/^(?=t)t\d+$/) });
    expect(() => fieldsFromZod(args)).toThrow(
      expect.objectContaining({ code: 'E_BAD_SCHEMA', message: expect.stringContaining('"tag"') }),
    );
    const [tag] = fieldsFromZod(args, { samples: { tag: ['t1', 't22'] } });
    expect(tag?.rule.kind === 'custom' && tag.rule.valid).toEqual(['t1', 't22']);
  });

  it.each([
    ['a default', { n: z.number().default(3) }, /"n" changes the value.*default/],
    ['a transform', { s: z.string().transform((s) => s.length) }, /"s" changes.*transform/],
    ['coercion', { n: z.coerce.number() }, /"n" changes.*coercion/],
    ['.trim()', { s: z.string().trim() }, /"s" changes.*overwrite/],
    ['an inner default', { n: z.number().default(1).optional() }, /"n" changes.*default/],
    ['requestId', { requestId: z.string() }, /"requestId" is the request id/],
    ['a zod 3 style value', { n: { parse: () => 1 } }, /"n" is not a zod 4 schema/],
  ])('refuses %s with E_BAD_SCHEMA', (_, shape, message) => {
    expect(() => fieldsFromZod(shape as never)).toThrow(
      expect.objectContaining({ code: 'E_BAD_SCHEMA', message: expect.stringMatching(message) }),
    );
  });

  it('refuses a non-object schema, samples of no field, and samples the schema rejects', () => {
    expect(() => fieldsFromZod(z.string() as never)).toThrow(/got a zod string/);
    const args = z.object({ delta: z.number().int().min(1).max(5) });
    expect(() => fieldsFromZod(args, { samples: { other: [1] } })).toThrow(
      expect.objectContaining({
        code: 'E_BAD_OPTION',
        message: expect.stringContaining('"other"'),
      }),
    );
    expect(() => fieldsFromZod(args, { samples: { delta: [2, 9] } })).toThrow(
      expect.objectContaining({ code: 'E_BAD_OPTION', message: expect.stringContaining('9') }),
    );
  });
});
