/**
 * The scheduled judge's search for an order that explains a run its derived order does not
 * (`check-scheduled-run.ts`): every order of each group (the derived one first), every reading of
 * the calls eligible for the in-flight answer and of the crashes whose effect is open, depth
 * first, bounded by `ORDER_SEARCH_MAX` group orders. Pure.
 */
import { declaresClaims } from '../model/policy.ts';
import { type ModelState, toSnapshot } from '../model/state.ts';
import type { Snapshot } from '../model/world.ts';
import type { LaneRecord } from '../types/scheduled-trace.ts';
import { crashReadings, permutationsFirst, subsets } from './lane-orders.ts';
import { judge, type Walk } from './scheduled-walk.ts';
import { diffSnapshots } from './snapshot-diff.ts';

/** Most group orders the search walks before it gives up and reports the least-blame order. */
export const ORDER_SEARCH_MAX = 20_000;

/**
 * Group orders (and, for calls eligible for the in-flight answer, readings) with no failure and
 * the final database right, or undefined.
 */
export function searchOrders(
  initial: ModelState,
  groups: readonly (readonly LaneRecord[])[],
  derived: readonly (readonly LaneRecord[])[],
  flying: ReadonlySet<LaneRecord>,
  snapshot: Snapshot,
):
  | {
      order: LaneRecord[][];
      inFlight: Set<LaneRecord>;
      noEffect: Set<LaneRecord>;
      claimed: Set<LaneRecord>;
    }
  | undefined {
  let budget = ORDER_SEARCH_MAX;
  const chosen: LaneRecord[][] = [];
  const inFlight = new Set<LaneRecord>();
  const noEffect = new Set<LaneRecord>();
  const claimed = new Set<LaneRecord>();
  const claims = declaresClaims(initial.policy);
  const visit = (i: number, state: ModelState): boolean => {
    if (i === groups.length)
      return diffSnapshots(toSnapshot(state), snapshot, state.operation).length === 0;
    const group = groups[i] ?? [];
    const eligible = group.filter((r) => flying.has(r));
    // A call that crashed after a COMMIT may still not have taken effect: a handler that commits
    // more than once (a claim, then the write) can die between its commits, and under a declared
    // claimExpiry it may have left its claim. The database and the later calls decide.
    const uncertain = group.filter((r) => r.end.kind === 'crashed' && r.end.committed);
    for (const order of permutationsFirst(derived[i] ?? [], group)) {
      for (const subset of subsets(eligible)) {
        for (const crash of crashReadings(uncertain, claims)) {
          if (--budget < 0) return false;
          const walk: Walk = { state, failures: [], expected: new Map() };
          const reading = new Set(subset);
          const none = new Set(crash.noEffect);
          const left = new Set(crash.claimed);
          let next = state;
          for (const rec of order) next = judge(next, rec, walk, flying, reading, none, left);
          if (walk.failures.length > 0) continue;
          chosen[i] = order;
          for (const r of eligible) inFlight.delete(r);
          for (const r of subset) inFlight.add(r);
          for (const r of uncertain) {
            noEffect.delete(r);
            claimed.delete(r);
          }
          for (const r of crash.noEffect) noEffect.add(r);
          for (const r of crash.claimed) claimed.add(r);
          if (visit(i + 1, next)) return true;
        }
      }
    }
    return false;
  };
  return visit(0, initial)
    ? { order: chosen.slice(0, groups.length), inFlight, noEffect, claimed }
    : undefined;
}
