/**
 * `fieldsFromJsonSchema`: the rules it derives (the MCP example's tool gives exactly the built-in
 * set_interval fields), validation that equals the SDK's own JSON Schema validator (ajv) on
 * generated and edge values, field by field, and the schemas it refuses, with what to do.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INPUT_SCHEMA } from '../../../examples/mcp-server/set-interval-tool.ts';
import type { ArgumentField } from '../../model/operation.ts';
import { setInterval } from '../../model/operations/set-interval.ts';
import { fieldHolds, invalidField } from '../../model/validate.ts';
import { edgeValues } from '../edge-values.ts';
import { specOf } from '../zod/fixtures/spec-of.ts';
import { fieldsFromJsonSchema } from './fields-from-json-schema.ts';

const rules = (fields: readonly ArgumentField[]) =>
  Object.fromEntries(fields.map((f) => [f.name, f.rule.kind === 'custom' ? 'custom' : f.rule]));

/** A tool input with every kind of field, and the rule each must get. */
const ARGS = {
  type: 'object',
  properties: {
    requestId: { type: 'string' },
    accountId: { type: 'integer', minimum: 1, description: 'the account' },
    delta: { type: 'integer', minimum: -100, maximum: 100 },
    digit: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 },
    count: { type: 'integer', minimum: 0 },
    step: { type: 'integer', multipleOf: 5, minimum: 0, maximum: 100 },
    ratio: { type: 'number', minimum: 0.5, maximum: 2.5 },
    code: { type: 'string', minLength: 2, maxLength: 5 },
    sku: { type: 'string', pattern: '^[A-Z]{3}-\\d{2}$' },
    tag: { type: 'string', pattern: 'ab' },
    currency: { type: 'string', enum: ['EUR', 'USD'] },
    kind: { const: 'x' },
    urgent: { type: 'boolean' },
    note: { type: 'string', maxLength: 3 },
    parent: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
    either: {
      oneOf: [
        { type: 'integer', maximum: 10 },
        { type: 'integer', minimum: 5 },
      ],
    },
  },
  required: [
    'requestId',
    'accountId',
    'delta',
    'digit',
    'count',
    'step',
    'ratio',
    'code',
    'sku',
    'tag',
    'currency',
    'kind',
    'urgent',
    'parent',
    'either',
  ],
} as const;

const ajv = new AjvJsonSchemaValidator();
const validators = new Map<string, (input: unknown) => { valid: boolean }>();

/** What the SDK's validator says of `value` in field `name` of `ARGS`. */
function ajvAccepts(name: string, value: unknown): boolean {
  let validate = validators.get(name);
  if (!validate) {
    const required = (ARGS.required as readonly string[]).includes(name) ? [name] : [];
    const property = ARGS.properties[name as 'delta'];
    validate = ajv.getValidator({
      type: 'object',
      properties: { [name]: property },
      required,
    } as never);
    validators.set(name, validate);
  }
  return validate(value === undefined ? {} : { [name]: value }).valid;
}

describe('fieldsFromJsonSchema', () => {
  const fields = fieldsFromJsonSchema(ARGS);

  it('gives the MCP example tool exactly the built-in set_interval rules', () => {
    expect(rules(fieldsFromJsonSchema(INPUT_SCHEMA))).toEqual(rules(setInterval.fields));
  });

  it('keeps the property order without the request id and maps plain integers to id and integer rules', () => {
    expect(fields.map((f) => f.name)).toEqual(Object.keys(ARGS.properties).slice(1));
    expect(rules(fields)).toEqual({
      accountId: { kind: 'id' },
      delta: { kind: 'integer', min: -100, max: 100 },
      digit: { kind: 'integer', min: 1, max: 9 },
      // No upper limit: the generators' far-out-of-range values would leave the safe integers.
      count: 'custom',
      step: 'custom',
      ratio: 'custom',
      code: 'custom',
      sku: 'custom',
      tag: 'custom',
      currency: 'custom',
      kind: 'custom',
      urgent: 'custom',
      // Not required: absent is valid, which no integer rule says.
      note: 'custom',
      parent: 'custom',
      either: 'custom',
    });
  });

  it('derives valid samples from options, limits, lengths and patterns, and invalid ones near them', () => {
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    const valid = (name: string) => {
      const rule = byName[name]?.rule;
      return rule?.kind === 'custom' ? rule.valid : [];
    };
    expect(valid('currency')).toEqual(['EUR', 'USD']);
    expect(byName.currency?.invalid).toEqual(expect.arrayContaining(['eur', 'EURx', '']));
    expect(valid('code')).toEqual(expect.arrayContaining(['ab', 'abcde']));
    expect(byName.code?.invalid).toEqual(expect.arrayContaining(['a', 'abcdef']));
    expect(valid('kind')).toEqual(['x']);
    expect(valid('urgent')).toEqual([true, false]);
    for (const s of valid('sku')) expect(s).toMatch(/^[A-Z]{3}-\d{2}$/);
    expect(valid('sku').length).toBeGreaterThan(2);
    expect(valid('step')).toEqual(expect.arrayContaining([0, 5, 100]));
    expect(byName.step?.invalid).toEqual(expect.arrayContaining([1, 101, 2.5, -1]));
    for (const f of fields) {
      for (const v of f.rule.kind === 'custom' ? f.rule.valid : [])
        expect(fieldHolds(f, v), `${f.name} ${String(v)}`).toBe(true);
      for (const v of f.invalid ?? [])
        expect(fieldHolds(f, v), `${f.name} ${String(v)}`).toBe(false);
    }
  });

  it('validates every field as the SDK validator does, on JSON values and every edge value', () => {
    const spec = specOf('json-schema-fields-agreement', fields);
    const edges = edgeValues(spec);
    const values = fc.sample(
      fc.oneof(
        fc.integer({ min: -200, max: 200 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string({ unit: 'grapheme', maxLength: 8 }),
        fc.stringMatching(/^[A-Z]{3}-\d{2}$/),
        fc.constantFrom('EUR', 'USD', 'x', 'ab', 'xaby', 'ü', '😀😀😀', '😀😀😀😀', null, true),
      ),
      { seed: 3, numRuns: 400 },
    );
    let compared = 0;
    for (const f of fields) {
      const own = edges.classes.filter((c) => c.startsWith(`${f.name} `));
      const edgeSamples = own.flatMap((c) => fc.sample(edges.value(c), { seed: 5, numRuns: 10 }));
      const valid = f.rule.kind === 'custom' ? f.rule.valid : [];
      for (const v of [...values, ...edgeSamples, ...valid, ...(f.invalid ?? [])]) {
        // Only what JSON carries, and receiptcheck's one reading: integers are safe integers.
        if (v !== undefined && JSON.stringify(v) === undefined) continue;
        if (v !== undefined && !Object.is(JSON.parse(JSON.stringify(v)), v)) continue;
        if (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v)) continue;
        expect(fieldHolds(f, v), `${f.name} ${JSON.stringify(v)}`).toBe(ajvAccepts(f.name, v));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(fields.length * 300);
  });

  it('reads integer as safe integers, as the contract does', () => {
    const [id] = fieldsFromJsonSchema(INPUT_SCHEMA).slice(0, 1);
    expect(id && fieldHolds(id, 2 ** 53)).toBe(false);
    expect(id && fieldHolds(id, Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  it('answers a request invalid in the schema order, naming the first bad field', () => {
    const spec = specOf('json-schema-fields-requests', fieldsFromJsonSchema(INPUT_SCHEMA));
    const good = { requestId: 'r1', automationId: 1, expectedVersion: 1, intervalMinutes: 30 };
    expect(invalidField(good, spec)).toBeUndefined();
    expect(invalidField({ ...good, expectedVersion: 0, intervalMinutes: 4 }, spec)).toBe(
      'expectedVersion',
    );
    expect(invalidField({ ...good, intervalMinutes: 1441 }, spec)).toBe('intervalMinutes');
    expect(invalidField({ ...good, automationId: '1' }, spec)).toBe('automationId');
  });

  it('asks for samples where none can be derived, and takes them', () => {
    const schema = {
      type: 'object',
      properties: { tag: { type: 'string', pattern: '^(?=t)t\\d+$' } },
      required: ['tag'],
    };
    expect(() => fieldsFromJsonSchema(schema)).toThrow(
      expect.objectContaining({ code: 'E_BAD_SCHEMA', message: expect.stringContaining('"tag"') }),
    );
    const [tag] = fieldsFromJsonSchema(schema, { samples: { tag: ['t1', 't22'] } });
    expect(tag?.rule.kind === 'custom' && tag.rule.valid).toEqual(['t1', 't22']);
  });

  it('takes another request id property, and then refuses a field named requestId', () => {
    const schema = {
      type: 'object',
      properties: { key: { type: 'string' }, n: { type: 'integer', minimum: 1 } },
      required: ['n'],
    };
    expect(fieldsFromJsonSchema(schema, { requestIdProperty: 'key' }).map((f) => f.name)).toEqual([
      'n',
    ]);
    expect(() => fieldsFromJsonSchema(ARGS, { requestIdProperty: 'key' })).toThrow(
      /"requestId" is named as the request id/,
    );
  });

  it.each([
    ['a format', { type: 'string', format: 'email' }, /"f" uses "format"/],
    ['a default', { type: 'integer', default: 3 }, /"f" has a default/],
    ['an object', { type: 'object' }, /"f" has type "object"/],
    ['a $ref', { $ref: '#/$defs/x' }, /"f" uses "\$ref"/],
    ['an allOf', { allOf: [{ type: 'integer' }] }, /"f" uses "allOf"/],
    ['a bad pattern', { type: 'string', pattern: '(' }, /"f" has a pattern JavaScript cannot read/],
    [
      'draft-04 exclusive limits',
      { type: 'integer', minimum: 1, exclusiveMinimum: true },
      /draft-04/,
    ],
  ])('refuses %s with E_BAD_SCHEMA', (_, field, message) => {
    const schema = { type: 'object', properties: { f: field }, required: ['f'] };
    expect(() => fieldsFromJsonSchema(schema)).toThrow(
      expect.objectContaining({ code: 'E_BAD_SCHEMA', message: expect.stringMatching(message) }),
    );
  });

  it('refuses a non-object schema, samples of no field, and samples the schema rejects', () => {
    expect(() => fieldsFromJsonSchema({ type: 'string' })).toThrow(/expected a JSON Schema object/);
    expect(() => fieldsFromJsonSchema({ type: 'object' })).toThrow(/lists no properties/);
    const schema = {
      type: 'object',
      properties: { d: { type: 'integer', minimum: 1, maximum: 5 } },
      required: ['d'],
    };
    expect(() => fieldsFromJsonSchema(schema, { samples: { other: [1] } })).toThrow(
      expect.objectContaining({
        code: 'E_BAD_OPTION',
        message: expect.stringContaining('"other"'),
      }),
    );
    expect(() => fieldsFromJsonSchema(schema, { samples: { d: [2, 9] } })).toThrow(
      expect.objectContaining({ code: 'E_BAD_OPTION', message: expect.stringContaining('9') }),
    );
  });
});
