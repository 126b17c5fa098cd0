/**
 * The arbitraries for what new intents put in an operation's value fields (`value-fields.ts`),
 * leaving out excluded input classes, and how an intent's drawn values are gathered. Kept apart
 * from `move-arbitrary.ts`, which only weighs the kinds of move.
 */
import fc from 'fast-check';
import type { OperationSpec } from '../model/operation.ts';
import { fieldHolds } from '../model/validate.ts';
import type { ClassName } from './field-classes.ts';
import { fieldClasses } from './input-classes.ts';
import type { Move } from './moves.ts';
import type { FieldValue, ValueField } from './value-fields.ts';

/** Prefix of the intent record's keys that hold field values (see `withValues`). */
export const VALUE_KEY = 'value:';

/**
 * An intent drawn with its field values as prefixed keys, with them gathered in `values` (last,
 * after the other keys in their order). Every intent passes through here: one pass, no spread.
 */
export function withValues(drawn: Readonly<Record<string, unknown>>): Move {
  const values: Record<string, FieldValue> = {};
  const move: Record<string, unknown> = {};
  for (const key in drawn) {
    const v = drawn[key];
    if (key.startsWith(VALUE_KEY)) values[key.slice(VALUE_KEY.length)] = v as FieldValue;
    else move[key] = v;
  }
  move.values = values;
  return move as unknown as Move;
}

/**
 * The pool of `field` without values in an excluded class; the whole pool when every value is,
 * since an intent needs some value there.
 */
export function allowedPool(
  spec: OperationSpec,
  f: ValueField,
  excluded: ReadonlySet<ClassName>,
): readonly FieldValue[] {
  const allowed = f.pool.filter((v) => isAllowed(spec, f, v, excluded));
  return allowed.length > 0 ? allowed : f.pool;
}

function isAllowed(
  spec: OperationSpec,
  f: ValueField,
  value: FieldValue,
  excluded: ReadonlySet<ClassName>,
): boolean {
  return !fieldClasses(f.field.name, value, [], spec).some((c) => excluded.has(c));
}

/**
 * A value new intents send in `f`: from its pool four times in five, else, for an integer rule,
 * any valid value in its range outside the excluded classes.
 */
export function valueArbitrary(
  spec: OperationSpec,
  f: ValueField,
  pool: readonly FieldValue[],
  excluded: ReadonlySet<ClassName>,
): fc.Arbitrary<FieldValue> {
  const pooled = fc.constantFrom(...pool);
  if (!f.range) return pooled;
  const inRange = fc
    .integer(f.range)
    .filter((v) => fieldHolds(f.field, v) && isAllowed(spec, f, v, excluded));
  return fc.oneof({ arbitrary: pooled, weight: 4 }, { arbitrary: inRange, weight: 1 });
}
