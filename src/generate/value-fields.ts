/**
 * What new intents put in an operation's fields besides the target: for each such field, the
 * values clients usually send, derived from the spec alone (the field's `typical` values, else
 * its rule's limits), or `set-interval`'s hand-picked intervals (`hand-picked.ts`). The expected
 * version is not among them: it comes from what the client last saw (`versioning.ts`). Pure.
 */
import type { ArgumentField, OperationSpec, Row } from '../model/operation.ts';
import { fieldHolds } from '../model/validate.ts';
import { mayBeLeftOut } from './field-classes.ts';
import { handPicked } from './hand-picked.ts';
import { versionField } from './versioning.ts';

/**
 * A value new intents send: numbers for every built-in, strings or booleans for a custom rule's,
 * and `undefined` for an optional field left out of the request.
 */
export type FieldValue = number | string | boolean | undefined;

/** How new intents fill one non-target field. */
export interface ValueField {
  readonly field: ArgumentField;
  /** The values a new intent draws from, mostly; never empty. */
  readonly pool: readonly FieldValue[];
  /** For an integer rule, the range drawn from beside the pool. */
  readonly range?: { readonly min: number; readonly max: number };
  /**
   * Two ordinary values, nearest zero among the pool's values strictly inside the range: the
   * first fills the field when another field is what a call is about (an edge value), and a key
   * reuse that changes this field swaps one for the other. For intervals, 30 and 60.
   */
  readonly usual: readonly [FieldValue, FieldValue];
}

/**
 * The non-target fields of `spec` (neither `targetField` nor `otherTargets`) other than its
 * expected version, in validation order, with
 * what new intents send in them. `rows`: the target rows, whose ids an `id` field picks from.
 */
export function valueFields(spec: OperationSpec, rows: readonly Row[]): ValueField[] {
  const version = versionField(spec);
  return spec.fields
    .filter(
      (f) =>
        f.name !== spec.targetField && f.name !== version && !spec.otherTargets?.includes(f.name),
    )
    .map((field) => valueField(spec, field, rows));
}

function valueField(spec: OperationSpec, field: ArgumentField, rows: readonly Row[]): ValueField {
  const rule = field.rule;
  if (rule.kind === 'id') return withUsual(field, rows.length > 0 ? rows.map((r) => r.id) : [1]);
  // An optional field is sometimes left out: a handler that needs it must be caught.
  if (rule.kind === 'custom')
    return withUsual(field, mayBeLeftOut(field) ? [...rule.valid, undefined] : rule.valid);
  const { min, max } = rule;
  const middle = Math.trunc((min + max) / 2);
  const derived = [min, middle, ...(rule.nonZero && min < 0 && max > 0 ? [-1, 1] : []), max];
  const pool = handPicked(spec.name, field.name).intents ?? field.typical ?? derived;
  return { ...withUsual(field, pool), range: { min, max } };
}

function withUsual(field: ArgumentField, values: readonly FieldValue[]): ValueField {
  const pool = values.filter((v) => fieldHolds(field, v));
  if (pool.length === 0) throw new RangeError(`field ${field.name} has no valid value to send`);
  const rule = field.rule;
  const inside = pool.filter(
    (v) => rule.kind !== 'integer' || (typeof v === 'number' && v > rule.min && v < rule.max),
  );
  const size = (v: FieldValue) => (typeof v === 'number' ? Math.abs(v) : 0);
  // Nearest zero first; of two as near, the positive one. A left-out field is never usual.
  const sent = (inside.length > 0 ? inside : pool).filter((v) => v !== undefined);
  const ordered = [...(sent.length > 0 ? sent : pool)].sort(
    (a, b) =>
      size(a) - size(b) ||
      ((b as string) > (a as string) ? 1 : (b as string) < (a as string) ? -1 : 0),
  );
  const first = ordered[0] as FieldValue;
  const second = ordered.find((v) => v !== first) ?? pool.find((v) => v !== first) ?? first;
  return { field, pool, usual: [first, second] };
}
