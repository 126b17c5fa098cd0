/**
 * The JSON Schema a field of a tool's input may have, read into a check: the keywords that judge
 * a scalar value (`type`, `enum`, `const`, lengths, `pattern`, numeric limits, `multipleOf`, and
 * `anyOf`/`oneOf` of such schemas); annotations (`title`, `description`, `examples`, `$comment`)
 * ignored. Any other keyword is refused with `E_BAD_SCHEMA` naming it: a check that skipped a
 * keyword the service applies would make the model and the service disagree.
 *
 * Two readings are receiptcheck's own, both the contract's: `integer` means a safe integer (a
 * JSON number past 2^53 has lost its digits; the contract says unsafe integers are not
 * integers), and a length counts code points, as JSON Schema does. Pure.
 */
import { ReceiptcheckError } from '../../errors.ts';

/** A JSON Schema, as a tool lists it: an object (or `true`/`false`). */
export type JsonSchema = boolean | Readonly<Record<string, unknown>>;

/** The keywords a field's schema may use. */
const JUDGING = new Set([
  'type',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'anyOf',
  'oneOf',
]);

/** Keywords that say nothing about which values pass. */
const ANNOTATIONS = new Set(['title', 'description', 'examples', '$comment', 'deprecated']);

const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'null']);

/** Why a field's schema cannot be read, as an `E_BAD_SCHEMA` error. */
export function badSchema(field: string, why: string): ReceiptcheckError {
  return new ReceiptcheckError('E_BAD_SCHEMA', `field "${field}" ${why}`);
}

/** The check `schema` stands for; throws `E_BAD_SCHEMA` for what it cannot judge. */
export function checkOf(field: string, schema: JsonSchema): (value: unknown) => boolean {
  if (schema === true) return () => true;
  if (schema === false) return () => false;
  for (const key of Object.keys(schema)) {
    if (ANNOTATIONS.has(key) || JUDGING.has(key)) continue;
    if (key === 'default')
      throw badSchema(
        field,
        'has a default, which a server fills in for a missing value: the model would judge the value sent, the service the default; make the field required or drop the default',
      );
    throw badSchema(
      field,
      `uses "${key}", which receiptcheck cannot judge; describe the field with type, enum, const, lengths, pattern, limits, multipleOf, anyOf or oneOf`,
    );
  }
  const checks = [
    typeCheck(field, schema.type),
    listCheck(field, schema),
    stringCheck(field, schema),
    numberCheck(field, schema),
    branchCheck(field, schema),
  ].filter((c) => c !== undefined);
  return (value) => checks.every((c) => c(value));
}

type Check = (value: unknown) => boolean;

function typeCheck(field: string, type: unknown): Check | undefined {
  if (type === undefined) return undefined;
  const types = Array.isArray(type) ? type : [type];
  for (const t of types)
    if (typeof t !== 'string' || !SCALAR_TYPES.has(t))
      throw badSchema(
        field,
        `has type ${JSON.stringify(t)}; a field is a scalar: string, integer, number, boolean or null`,
      );
  return (value) => types.some((t) => isOfType(t as string, value));
}

/** Whether `value` is a JSON value of `type` (integers safe, numbers finite). */
export function isOfType(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return value === null;
  }
}

function listCheck(field: string, schema: Readonly<Record<string, unknown>>): Check | undefined {
  const { enum: options, const: only } = schema;
  if (options !== undefined && !Array.isArray(options))
    throw badSchema(field, 'has an enum that is not an array');
  const checks: Check[] = [];
  if (Array.isArray(options)) checks.push((v) => options.some((o) => Object.is(o, v) || o === v));
  if ('const' in schema) checks.push((v) => v === only);
  return checks.length > 0 ? (v) => checks.every((c) => c(v)) : undefined;
}

function stringCheck(field: string, schema: Readonly<Record<string, unknown>>): Check | undefined {
  const min = count(field, schema, 'minLength');
  const max = count(field, schema, 'maxLength');
  let pattern: RegExp | undefined;
  if (schema.pattern !== undefined) {
    if (typeof schema.pattern !== 'string')
      throw badSchema(field, 'has a pattern that is not a string');
    try {
      pattern = new RegExp(schema.pattern, 'u');
    } catch (thrown) {
      throw badSchema(field, `has a pattern JavaScript cannot read: ${(thrown as Error).message}`);
    }
  }
  if (min === undefined && max === undefined && !pattern) return undefined;
  // String keywords leave other types alone, as JSON Schema says.
  return (v) => {
    if (typeof v !== 'string') return true;
    const length = [...v].length;
    return (
      (min === undefined || length >= min) &&
      (max === undefined || length <= max) &&
      (!pattern || pattern.test(v))
    );
  };
}

function numberCheck(field: string, schema: Readonly<Record<string, unknown>>): Check | undefined {
  const limits = numericLimits(field, schema);
  const step = schema.multipleOf;
  if (step !== undefined && !(typeof step === 'number' && step > 0))
    throw badSchema(field, 'has a multipleOf that is not a positive number');
  if (!limits && step === undefined) return undefined;
  return (v) => {
    if (typeof v !== 'number') return true;
    if (limits && !(v >= limits.min && v <= limits.max && v > limits.above && v < limits.below))
      return false;
    return step === undefined || Number.isInteger(v / (step as number));
  };
}

/** The numeric limits of a schema: inclusive `min`/`max`, exclusive `above`/`below`. */
export function numericLimits(
  field: string,
  schema: Readonly<Record<string, unknown>>,
): { min: number; max: number; above: number; below: number } | undefined {
  const keys = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
  if (keys.every((k) => schema[k] === undefined)) return undefined;
  for (const k of keys)
    if (schema[k] !== undefined && typeof schema[k] !== 'number')
      throw badSchema(
        field,
        `has a ${k} that is not a number (draft-04's boolean form is not read)`,
      );
  const n = (k: (typeof keys)[number], none: number) => (schema[k] as number | undefined) ?? none;
  return {
    min: n('minimum', Number.NEGATIVE_INFINITY),
    max: n('maximum', Number.POSITIVE_INFINITY),
    above: n('exclusiveMinimum', Number.NEGATIVE_INFINITY),
    below: n('exclusiveMaximum', Number.POSITIVE_INFINITY),
  };
}

function branchCheck(field: string, schema: Readonly<Record<string, unknown>>): Check | undefined {
  const checks: Check[] = [];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (branches === undefined) continue;
    if (!Array.isArray(branches) || branches.length === 0)
      throw badSchema(field, `has an ${key} that is not a non-empty array`);
    const each = branches.map((b) => checkOf(field, b as JsonSchema));
    checks.push(
      key === 'anyOf'
        ? (v) => each.some((c) => c(v))
        : (v) => each.filter((c) => c(v)).length === 1,
    );
  }
  return checks.length > 0 ? (v) => checks.every((c) => c(v)) : undefined;
}

function count(
  field: string,
  schema: Readonly<Record<string, unknown>>,
  key: string,
): number | undefined {
  const value = schema[key];
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    throw badSchema(field, `has a ${key} that is not a non-negative integer`);
  return value as number;
}
