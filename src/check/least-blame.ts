/**
 * When no serial order explains a scheduled run, which order and reading its report rests on:
 * the one that blames the fewest calls. The scheduler's derived order is a guess (a lane's last
 * statement, not the moment it took effect); reporting its failures listed calls that another
 * order explains, such as the winner of a race whose `ok(fresh)` was read after the loser and
 * called a replay missing its flag, beside the loser that really answered wrongly.
 *
 * Groups are separated in real time, so each group's order is chosen on its own, in turn: of all
 * its orders (and readings of calls eligible for the in-flight answer), the first that fails the
 * fewest of its calls, the derived order first. A call it still blames that another order failing
 * as few would explain is one of several, of which at least one is wrong; those other lanes are
 * kept beside it (`instead`), so the report can say which of them the blame could fall on.
 *
 * A call that crashed after a commit may or may not have taken effect (a handler can die between
 * two commits); that reading reaches the final database, so it is chosen over the whole run: each
 * combination of readings is walked, and the one whose failures, database differences and broken
 * invariants (`cost`) are fewest wins. A report then never expects a change from a crashed call
 * that the database and the later calls say never happened. Under a declared `claimExpiry` a
 * third reading joins them: the call left its claim. Pure and bounded.
 */

import { declaresClaims } from '../model/policy.ts';
import type { ModelState } from '../model/state.ts';
import type { LaneRecord } from '../types/scheduled-trace.ts';
import { crashReadings, permutationsFirst, subsets } from './lane-orders.ts';
import { judge, type Walk } from './scheduled-walk.ts';

/** The order and readings a failing run is reported under. */
export interface Blame {
  readonly walk: Walk;
  readonly order: readonly (readonly LaneRecord[])[];
  /** Calls read as the declared in-flight answer. */
  readonly inFlight: ReadonlySet<LaneRecord>;
  /** Calls that crashed after a commit, read as having changed nothing. */
  readonly noEffect: ReadonlySet<LaneRecord>;
  /** Calls that crashed after a commit, read as having left their claim (`claimExpiry`). */
  readonly claimed: ReadonlySet<LaneRecord>;
  /** By `step:lane` of a blamed call: the lanes of its group an order failing as few blames instead. */
  readonly instead: ReadonlyMap<string, readonly number[]>;
}

/**
 * Most crashed-after-commit calls whose readings are combined (2^n walks, 3^n with claims); later
 * ones took effect.
 */
export const CRASH_READINGS_MAX = 6;

/** Most orders and readings tried for one group; past it, the first ones tried stand. */
export const GROUP_CANDIDATES_MAX = 2_000;

/**
 * The least-blame order and readings of a run (see the file comment); `cost` counts what a whole
 * walk leaves wrong beyond its outcome failures (database differences, broken invariants).
 */
export function leastBlame(
  initial: ModelState,
  groups: readonly (readonly LaneRecord[])[],
  derived: readonly (readonly LaneRecord[])[],
  flying: ReadonlySet<LaneRecord>,
  cost: (walk: Walk) => number,
): Blame {
  const crashed = groups
    .flat()
    .filter((r) => r.end.kind === 'crashed' && r.end.committed)
    .slice(0, CRASH_READINGS_MAX);
  let best: { blame: Blame; total: number } | undefined;
  for (const crash of crashReadings(crashed, declaresClaims(initial.policy))) {
    const readings = { noEffect: new Set(crash.noEffect), claimed: new Set(crash.claimed) };
    const blame = greedy(initial, groups, derived, flying, readings);
    const total = blame.walk.failures.length + cost(blame.walk);
    if (!best || total < best.total) best = { blame, total };
  }
  return (best as { blame: Blame }).blame;
}

/** One reading of the crashed-after-commit calls: changed nothing, or left their claim. */
interface CrashReading {
  readonly noEffect: ReadonlySet<LaneRecord>;
  readonly claimed: ReadonlySet<LaneRecord>;
}

/** One candidate order of a group, walked. */
interface Candidate {
  readonly order: readonly LaneRecord[];
  readonly inFlight: readonly LaneRecord[];
  readonly walk: Walk;
}

/** Each group in its least-blame order, in turn, under one reading of the crashed calls. */
function greedy(
  initial: ModelState,
  groups: readonly (readonly LaneRecord[])[],
  derived: readonly (readonly LaneRecord[])[],
  flying: ReadonlySet<LaneRecord>,
  crash: CrashReading,
): Blame {
  const walk: Walk = { state: initial, failures: [], expected: new Map() };
  const order: LaneRecord[][] = [];
  const inFlight = new Set<LaneRecord>();
  const instead = new Map<string, number[]>();
  let state = initial;
  groups.forEach((group, i) => {
    const candidates = candidatesOf(state, group, derived[i] ?? group, flying, crash);
    const fewest = Math.min(...candidates.map((c) => c.walk.failures.length));
    const least = candidates.filter((c) => c.walk.failures.length === fewest);
    const chosen = least[0] as Candidate;
    for (const f of chosen.walk.failures) {
      if (f.kind !== 'outcome') continue;
      const others = least.filter(
        (c) => !c.walk.failures.some((g) => g.kind === 'outcome' && g.lane === f.lane),
      );
      const lanes = new Set(others.flatMap((c) => c.walk.failures.flatMap(outcomeLane)));
      lanes.delete(f.lane);
      if (lanes.size > 0)
        instead.set(
          `${f.step}:${f.lane}`,
          [...lanes].sort((a, b) => a - b),
        );
    }
    order.push([...chosen.order]);
    for (const r of chosen.inFlight) inFlight.add(r);
    walk.failures.push(...chosen.walk.failures);
    for (const [r, o] of chosen.walk.expected) walk.expected.set(r, o);
    state = chosen.walk.state;
  });
  return { walk: { ...walk, state }, order, inFlight, ...crash, instead };
}

/** Every order of `group` (the derived one first) under every in-flight reading, walked from `state`. */
function candidatesOf(
  state: ModelState,
  group: readonly LaneRecord[],
  derived: readonly LaneRecord[],
  flying: ReadonlySet<LaneRecord>,
  crash: CrashReading,
): Candidate[] {
  const eligible = group.filter((r) => flying.has(r));
  const out: Candidate[] = [];
  for (const order of permutationsFirst(derived, group)) {
    for (const subset of subsets(eligible)) {
      const walk: Walk = { state, failures: [], expected: new Map() };
      const reading = new Set(subset);
      let next = state;
      for (const rec of order)
        next = judge(next, rec, walk, flying, reading, crash.noEffect, crash.claimed);
      out.push({ order, inFlight: subset, walk: { ...walk, state: next } });
      if (out.length >= GROUP_CANDIDATES_MAX) return out;
    }
  }
  return out;
}

function outcomeLane(f: Walk['failures'][number]): number[] {
  return f.kind === 'outcome' ? [f.lane] : [];
}
