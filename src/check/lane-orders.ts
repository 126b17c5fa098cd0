/**
 * The orders a scheduled run's judge may try: a run's lanes grouped by step, every order of a
 * group (the derived one first) and every subset of a set of readings. Pure enumeration; the
 * judge (`check-scheduled-run.ts`) bounds how much of it is walked.
 */
import type { LaneRecord } from '../types/scheduled-trace.ts';

/** Every subset of `items`, the empty one first. */
export function subsets<T>(items: readonly T[]): T[][] {
  let all: T[][] = [[]];
  for (const item of items) all = [...all, ...all.map((s) => [...s, item])];
  return all;
}

/**
 * Every reading of crashed calls whose effect is open: each took effect, changed nothing
 * (`noEffect`) or, when `claims` (the policy declares that a crash may leave a claim), left a
 * claim (`claimed`). All took effect first; 2^n readings, or 3^n with claims.
 */
export function crashReadings<T>(
  crashed: readonly T[],
  claims: boolean,
): { readonly noEffect: T[]; readonly claimed: T[] }[] {
  let all: { noEffect: T[]; claimed: T[] }[] = [{ noEffect: [], claimed: [] }];
  for (const item of crashed) {
    const none = all.map((r) => ({ ...r, noEffect: [...r.noEffect, item] }));
    const claim = claims ? all.map((r) => ({ ...r, claimed: [...r.claimed, item] })) : [];
    all = [...all, ...none, ...claim];
  }
  return all;
}

/** Every order of `lanes`, the derived one first. */
export function permutationsFirst(
  first: readonly LaneRecord[],
  lanes: readonly LaneRecord[],
): LaneRecord[][] {
  const all = permutations([...lanes]);
  const key = (o: readonly LaneRecord[]) => o.map((r) => r.lane).join(',');
  const firstKey = key(first);
  return [[...first], ...all.filter((o) => key(o) !== firstKey)];
}

/** Every order of `items`. */
function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  const out: T[][] = [];
  items.forEach((item, i) => {
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const p of permutations(rest)) out.push([item, ...p]);
  });
  return out;
}

/** The lanes of each step, in step order (records come in step order, then lane order). */
export function groupByStep(lanes: readonly LaneRecord[]): LaneRecord[][] {
  const groups: LaneRecord[][] = [];
  let current: LaneRecord[] | undefined;
  let at = -1;
  for (const rec of lanes) {
    if (rec.step !== at || !current) {
      current = [];
      groups.push(current);
      at = rec.step;
    }
    current.push(rec);
  }
  return groups;
}
