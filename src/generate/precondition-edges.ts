/**
 * Where an operation's precondition changes its verdict, found by probing it. The precondition is
 * a pure function of the target row and the arguments, so for one ordered field (an integer, or
 * an id such as an expected version) and the row a call will meet, the values where the verdict
 * flips are found by evaluating it at a few anchors (the field's limits, 0, the row's numbers and
 * their negations) and bisecting between two anchors that disagree. No hint from the spec's
 * author: a built-in, a user's spec and a zod-derived field are probed alike. Pure.
 */
import type { Args, ArgumentField, OperationSpec, Row } from '../model/operation.ts';
import { fieldHolds } from '../model/validate.ts';

/** Most flips kept per field and row: each costs a bisection (about 50 probes at most). */
const FLIPS_MAX = 4;

/** A verdict as a comparable string: '' when the precondition holds, else the refusal. */
type Verdict = string;

const seekable = new WeakMap<OperationSpec, readonly ArgumentField[]>();

/**
 * The ordered fields of `spec` a precondition edge is sought on: every integer or id but the
 * target. Kept per spec: the summary asks for every call of every run.
 */
export function seekableFields(spec: OperationSpec): readonly ArgumentField[] {
  let fields = seekable.get(spec);
  if (!fields) {
    fields = spec.fields.filter(
      (f) => f.name !== spec.targetField && (f.rule.kind === 'integer' || f.rule.kind === 'id'),
    );
    seekable.set(spec, fields);
  }
  return fields;
}

/** The smallest and largest valid value of an ordered field. */
export function fieldRange(field: ArgumentField): { readonly min: number; readonly max: number } {
  const rule = field.rule;
  if (rule.kind === 'integer') return { min: rule.min, max: rule.max };
  return { min: 1, max: Number.MAX_SAFE_INTEGER };
}

/**
 * The values `a` of `field` (with the other arguments as in `args`) where the precondition's
 * verdict on `row` at `a` differs from its verdict at `a + 1`, in ascending order (at most
 * `FLIPS_MAX`). Empty when the spec has no precondition, or it throws on a probe.
 */
export function flipsOf(
  spec: OperationSpec,
  row: Row,
  others: readonly Row[],
  args: Args,
  field: ArgumentField,
): readonly number[] {
  const precondition = spec.precondition;
  if (!precondition) return [];
  const probe: Args = { ...args };
  const mutable = probe as Record<string, unknown>;
  const verdict = (v: number): Verdict => {
    mutable[field.name] = v;
    return precondition(row, probe, others) ?? '';
  };
  try {
    const anchors = anchorsOf(field, row, args);
    const verdicts = anchors.map(verdict);
    const flips: number[] = [];
    for (let i = 1; i < anchors.length && flips.length < FLIPS_MAX; i++) {
      if (verdicts[i] === verdicts[i - 1]) continue;
      flips.push(bisect(anchors[i - 1] as number, anchors[i] as number, verdict));
    }
    return flips;
  } catch {
    return [];
  }
}

/**
 * The last value from `lo` that keeps `lo`'s verdict, when `hi`'s differs: halves the gap until
 * the two are neighbours. On a verdict that flips more than once in between, some flip.
 */
function bisect(lo: number, hi: number, verdict: (v: number) => Verdict): number {
  const low = verdict(lo);
  let [a, b] = [lo, hi];
  while (b - a > 1) {
    const mid = a + Math.floor((b - a) / 2);
    if (verdict(mid) === low) a = mid;
    else b = mid;
  }
  return a;
}

/**
 * Where to probe first, ascending and inside the field's range: its limits, 0 and ±1, each
 * number in the row and the arguments with its negation and neighbours (a threshold written in
 * terms of the row, such as `balance + delta < 0`, flips near one of them).
 */
function anchorsOf(field: ArgumentField, row: Row, args: Args): number[] {
  const { min, max } = fieldRange(field);
  // Gathered in a plain array, sorted, repeats dropped: every seek of every run probes these.
  const found = [min, max, -1, 0, 1];
  for (const source of [row, args])
    for (const key in source) {
      const value = (source as Record<string, unknown>)[key];
      if (typeof value === 'number' && Number.isSafeInteger(value))
        found.push(value - 1, value, value + 1, -value - 1, -value, -value + 1);
    }
  found.sort((a, b) => a - b);
  const anchors: number[] = [];
  for (const v of found)
    if (v >= min && v <= max && v !== anchors[anchors.length - 1]) anchors.push(v);
  return anchors;
}

/**
 * The values a call seeking the precondition's edge on `field` may send: around each flip `a`,
 * one below it, `a`, `a + 1` (the two sides of the edge) and one above; then the field's own
 * limits. Valid values only, without repeats, in that order. Only the limits when the row is
 * missing (the call will be refused before the precondition) or nothing flips.
 */
export function edgeCandidates(
  spec: OperationSpec,
  row: Row | undefined,
  others: readonly Row[],
  args: Args,
  field: ArgumentField,
): readonly number[] {
  const { min, max } = fieldRange(field);
  const around = row
    ? flipsOf(spec, row, others, args, field).flatMap((a) => [a - 1, a, a + 1, a + 2])
    : [];
  const seen = new Set<number>();
  for (const v of [...around, min, max])
    if (v >= min && v <= max && fieldHolds(field, v)) seen.add(v);
  return [...seen];
}

/** Which side of a precondition edge a call's value sits on, if it sits next to one. */
export type EdgeSide = 'held' | 'refused';

/**
 * Whether the value `args` send in `field` sits next to a precondition edge on `row`: the
 * verdict at one of its neighbours differs. `held` when the precondition holds at the value,
 * `refused` when it refuses; undefined when neither neighbour flips (or it throws).
 */
export function edgeSideOf(
  spec: OperationSpec,
  row: Row,
  others: readonly Row[],
  args: Args,
  field: ArgumentField,
): EdgeSide | undefined {
  const precondition = spec.precondition;
  const value = args[field.name];
  if (!precondition || typeof value !== 'number') return undefined;
  try {
    const at = precondition(row, args, others) ?? '';
    for (const d of [-1, 1]) {
      // A neighbour that breaks the rule (0 in a non-zero field) is stepped over once.
      const next = fieldHolds(field, value + d) ? value + d : value + 2 * d;
      if (!fieldHolds(field, next)) continue;
      if ((precondition(row, { ...args, [field.name]: next }, others) ?? '') !== at)
        return at === '' ? 'held' : 'refused';
    }
  } catch {
    return undefined;
  }
  return undefined;
}
