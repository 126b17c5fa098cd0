/**
 * The input classes of an operation's argument fields, derived from each field's rule, so every
 * operation gets its boundaries and invalid shapes without a list written for it. Pure.
 *
 * - `id` fields (a positive safe integer): 1; beyond 32 bits; MAX_SAFE_INTEGER; then 0,
 *   negative and the shared invalid types (`TYPE_CLASSES`).
 * - `integer` fields in `min`–`max`: each limit and, for a non-zero rule spanning 0, -1 and 1
 *   (named by their values: `intervalMinutes 5`, `delta -1`); just past each limit (`min - 1`,
 *   `max + 1`); 0 when the rule rejects it; negative when `min` is positive; far out of range;
 *   then the shared invalid types.
 * - `custom` fields: boolean and null, each when the spec's own check rejects it (it decides
 *   the rest).
 * - Any field with declared invalid values (`ArgumentField.invalid`): `declared invalid`.
 * - An optional field (`ArgumentField.optional`): `left out`, a request without it (valid: the
 *   handler must answer it as the contract does, not read the field as always sent).
 *
 * Named `<field> <class>`. For `set-interval` these are exactly the field classes of
 * `INPUT_CLASSES` (`types/input-coverage.ts`), in its order; a test holds them equal.
 */
import type { ArgumentField, FieldRule, OperationSpec } from '../model/operation.ts';
import { fieldHolds } from '../model/validate.ts';
import { INPUT_CLASSES } from '../types/input-coverage.ts';

/**
 * An input class name, `<input> <class>`. A string because a spec's fields name their own
 * classes; for `set-interval` every name is an `InputClass`.
 */
export type ClassName = string;

/**
 * The classes of an `id` field, after its name. `INPUT_CLASSES` names them once, for
 * `set-interval`'s `automationId`; every id field of every operation has the same.
 */
const ID_CLASSES = INPUT_CLASSES.filter((c) => c.startsWith('automationId ')).map((c) =>
  c.slice('automationId '.length),
);

/** Wrong types and shapes every numeric field rejects, after its own classes. */
const TYPE_CLASSES = ID_CLASSES.slice(ID_CLASSES.indexOf('unsafe integer'));

type IntegerRule = Extract<FieldRule, { kind: 'integer' }>;

/** Whether new intents leave `field` out of some requests (`value-fields.ts`): an optional `custom` one. */
export function mayBeLeftOut(field: ArgumentField): boolean {
  return field.optional === true && field.rule.kind === 'custom';
}

/** Every class of `field`, in the order summaries list them. */
export function fieldClassNames(field: ArgumentField): ClassName[] {
  const rule = field.rule;
  const own =
    rule.kind === 'id'
      ? ID_CLASSES
      : rule.kind === 'integer'
        ? integerClassNames(rule)
        : customClassNames(rule);
  const declared = field.invalid?.length ? ['declared invalid'] : [];
  const leftOut = mayBeLeftOut(field) ? ['left out'] : [];
  return [...own, ...declared, ...leftOut].map((c) => `${field.name} ${c}`);
}

/**
 * Every input class of `spec`: the request id's, each field's in validation order, the
 * principal's. For `set-interval`, `INPUT_CLASSES` itself.
 */
export function inputClassesOf(spec: OperationSpec): ClassName[] {
  const shared = (input: string) => INPUT_CLASSES.filter((c) => c.startsWith(`${input} `));
  return [...shared('requestId'), ...spec.fields.flatMap(fieldClassNames), ...shared('principal')];
}

/** The values an integer rule is classed at exactly: its limits, 0's neighbours, just past. */
function integerEdges(rule: IntegerRule): number[] {
  const spansZero = rule.nonZero === true && rule.min < 0 && rule.max > 0;
  return [rule.min, rule.max, ...(spansZero ? [-1, 1] : []), rule.min - 1, rule.max + 1];
}

function integerClassNames(rule: IntegerRule): string[] {
  const zeroInvalid = !ruleAccepts(rule, 0);
  const names = [
    ...integerEdges(rule).map(String),
    ...(zeroInvalid ? ['0'] : []),
    ...(rule.min > 0 ? ['negative'] : []),
    'far out of range',
    ...TYPE_CLASSES,
  ];
  // With min 1, `min - 1` is 0: one class, listed once.
  return [...new Set(names)];
}

type CustomRule = Extract<FieldRule, { kind: 'custom' }>;

/**
 * A custom rule's classes: `boolean` when it rejects a boolean, `null` when it rejects null. A
 * field whose valid values are booleans (or may be null) has no such invalid class.
 */
function customClassNames(rule: CustomRule): string[] {
  return [
    ...(rule.check(true) && rule.check(false) ? [] : ['boolean']),
    ...(rule.check(null) ? [] : ['null']),
  ];
}

function ruleAccepts(rule: FieldRule, value: unknown): boolean {
  return fieldHolds({ name: '', rule }, value);
}

/** The classes of `value` sent in `field`. */
export function valueClasses(field: ArgumentField, value: unknown): ClassName[] {
  if (value === undefined && mayBeLeftOut(field)) return [`${field.name} left out`];
  const classes = ruleClasses(field.name, field.rule, value);
  if (field.invalid?.some((v) => Object.is(v, value)))
    classes.push(`${field.name} declared invalid`);
  return classes;
}

function ruleClasses(name: string, rule: FieldRule, value: unknown): ClassName[] {
  if (rule.kind === 'custom') {
    // Only a rejected boolean or null is in its invalid class.
    if (rule.check(value)) return [];
    if (value === null) return [`${name} null`];
    return typeof value === 'boolean' ? [`${name} boolean`] : [];
  }
  if (value === null) return [`${name} null`];
  if (typeof value === 'boolean') return [`${name} boolean`];
  if (typeof value === 'string')
    return [
      /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(value)
        ? `${name} numeric string`
        : `${name} other string`,
    ];
  if (typeof value !== 'number') return [];
  if (!Number.isFinite(value)) return [`${name} NaN or Infinity`];
  if (!Number.isInteger(value)) return [`${name} fraction`];
  if (!Number.isSafeInteger(value)) return [`${name} unsafe integer`];
  if (rule.kind === 'id') return idClasses(name, value);
  if (value === 0 && !ruleAccepts(rule, 0)) return [`${name} 0`];
  if (value < 0 && rule.min > 0) return [`${name} negative`];
  if (integerEdges(rule).includes(value)) return [`${name} ${value}`];
  return value < rule.min - 1 || value > rule.max + 1 ? [`${name} far out of range`] : [];
}

function idClasses(name: string, value: number): ClassName[] {
  if (value === 0) return [`${name} 0`];
  if (value < 0) return [`${name} negative`];
  const out: ClassName[] = [];
  if (value === 1) out.push(`${name} 1`);
  if (value > 2 ** 31 - 1) out.push(`${name} beyond 32 bits`);
  if (value === Number.MAX_SAFE_INTEGER) out.push(`${name} MAX_SAFE_INTEGER`);
  return out;
}

/** A value's classes in a field (`valueClasses`) and whether the field's rule holds for it. */
export interface ValueShape {
  /** Frozen: shared by every call that sends this value in this field. */
  readonly classes: readonly ClassName[];
  readonly holds: boolean;
}

/** The most values kept per field; past it a value is classified afresh (same answer). */
const SHAPES_KEPT_MAX = 4_096;

/** Per field of a spec, in its order: the shapes kept by value, or undefined (a `custom` rule). */
export type FieldShapes = readonly (Map<unknown, ValueShape> | undefined)[];

const shapesKept = new WeakMap<OperationSpec, FieldShapes>();

/**
 * Where `valueShape` keeps `spec`'s fields' shapes: fetched once per run, so each field of each
 * call costs one `Map` lookup. Only the rules this module knows are pure (`id`, `integer`) keep
 * any: a `custom` rule's check is the spec's own code, asked every time as before.
 */
export function fieldShapes(spec: OperationSpec): FieldShapes {
  let kept = shapesKept.get(spec);
  if (!kept) {
    kept = spec.fields.map((f) => (f.rule.kind === 'custom' ? undefined : new Map()));
    shapesKept.set(spec, kept);
  }
  return kept;
}

/**
 * `valueClasses` and `fieldHolds` of `value` in `field`, kept in `kept` (`fieldShapes`' entry for
 * the field): input coverage asks for every field of every call, and a check sends the same few
 * values again and again. Only primitives are kept (a `Map` key is the value itself; -0 is left
 * out, as a declared invalid value tells it from 0).
 */
export function valueShape(
  kept: Map<unknown, ValueShape> | undefined,
  field: ArgumentField,
  value: unknown,
): ValueShape {
  // -0 is neither looked up nor kept: a `Map` would find 0's shape for it.
  const keepable =
    kept !== undefined &&
    (value === null ||
      (typeof value !== 'object' && typeof value !== 'function' && !Object.is(value, -0)));
  if (keepable) {
    const found = kept.get(value);
    if (found !== undefined) return found;
  }
  const shape = { classes: valueClasses(field, value), holds: fieldHolds(field, value) };
  if (keepable && kept.size < SHAPES_KEPT_MAX) {
    Object.freeze(shape.classes);
    kept.set(value, Object.freeze(shape));
  }
  return shape;
}
