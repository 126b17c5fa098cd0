/**
 * Judges one scheduled run against the model. Pure: no thread, no database.
 *
 * Why not the linearizability checker: in scheduled mode the coordinator granted every statement
 * itself, so it knows what a concurrent run can only guess. It knows the order in which the lanes
 * of a group took effect (the grant of each call's commit), so it derives one serial order and
 * checks the model along it, exactly as sequential mode does, with expected-versus-actual per call.
 * It knows whether a crashed call committed before it died: before any commit the model expects
 * nothing changed; after one, first the call's change (its outcome is unknown, the client never
 * heard), and, if that does not fit, nothing changed, since a handler that commits more than once
 * (a library's claim, then its write) may die between its commits; and, under a declared
 * `claimExpiry`, a third reading: the call died right after its claim, which it left behind (the
 * model's `leaveClaim`). And it knows which calls had a statement
 * fault injected: such a call may answer `error`, and then must have changed nothing (under a
 * declared `storesErrors`, when a write of the call became durable after its fault, nothing but
 * its error stored under its key: the model's `leaveError`); a call that recovered (retried the
 * statement) must answer what the model says. A faulted call that answered
 * neither fails, and the final database is then also read with it having changed nothing, so the
 * reported difference is one no accepted answer would explain.
 *
 * The derived order is a good first guess, not a proof: a handler may take effect somewhere other
 * than its commit (a scope read at the start, a read-only answer from an earlier snapshot). So
 * before reporting a failure the other orders of each group are searched (groups are at most a
 * few lanes and are separated in real time, so this is small and bounded); the contract only asks
 * that *some* serial order consistent with real time explain every outcome and the final database.
 * When none does, the failures reported are those of the order that blames the fewest calls
 * (`least-blame.ts`), never the derived guess's: a call is listed as failing only when no order
 * blaming no more calls gives its outcome, or, when several do, with the lanes blamed instead.
 *
 * The in-flight answers of a declared policy are applied as concurrent mode applies them
 * (`in-flight.ts`, on a history with one interval per step, so the lanes of a group overlap and
 * steps do not): under `inFlightDuplicate: 'conflict'` a call answered `refused: conflict` while
 * another call under its key ran in the same group, and under declared visible claims a call
 * answered `keyReuse` beside one under its key with another payload, may be that in-flight
 * answer, which changes nothing.
 */

import type { Step } from '../model/events.ts';
import type { HistoryEntry } from '../model/history.ts';
import type { OperationSpec } from '../model/operation.ts';
import type { Observed } from '../model/outcome.ts';
import { declaresVisibleClaims } from '../model/policy.ts';
import { initialState, type ModelState, toSnapshot } from '../model/state.ts';
import type { Fixture, Snapshot } from '../model/world.ts';
import type { LaneRecord } from '../types/scheduled-trace.ts';
import type { Observation, Trace } from '../types/trace.ts';
import type { Failure, RunVerdict } from '../types/verdict.ts';
import { checkInvariants } from './invariants/all-invariants.ts';
import { groupByStep, subsets } from './lane-orders.ts';
import { leastBlame } from './least-blame.ts';
import { inFlightAnswers } from './linearizability/in-flight.ts';
import type { RunRecord } from './run-record.ts';
import { searchOrders } from './scheduled-order-search.ts';
import { NONE, type Reading, type Walk, walkFromGeneration, walkOrder } from './scheduled-walk.ts';
import { diffSnapshots } from './snapshot-diff.ts';

/** A scheduled run, ready to be checked. */
export interface ScheduledRunRecord {
  readonly fixture: Fixture;
  /** The operation the run checked: the one its plugin implements. */
  readonly spec: OperationSpec;
  readonly steps: readonly Step[];
  /** Every lane of every step, in step order then lane order. */
  readonly lanes: readonly LaneRecord[];
  readonly snapshot: Snapshot;
  /** Generation's own walk of the model over `steps`, when it made one (`RunRecord.walk`). */
  readonly walk?: RunRecord['walk'];
}

/** The verdict, the serial order it rests on, and the trace the invariants read. */
export interface ScheduledVerdict {
  readonly verdict: RunVerdict;
  /**
   * The serial order accepted, or, when none is, the order that blames the fewest calls
   * (`least-blame.ts`), as `{step, lane}`.
   */
  readonly order: readonly { readonly step: number; readonly lane: number }[];
  readonly trace: Trace;
  /** Calls that crashed after a commit and are read, in that order, as having changed nothing. */
  readonly noEffect: readonly { readonly step: number; readonly lane: number }[];
  /** Calls that crashed after a commit and are read as having left their claim (`claimExpiry`). */
  readonly leftClaim: readonly { readonly step: number; readonly lane: number }[];
}

/** Checks a scheduled run (see the file comment for what is expected of crashes and faults). */
export function checkScheduledRun(run: ScheduledRunRecord): ScheduledVerdict {
  // No closures on the path every run takes: tsx names each one it makes (`__name`), which was
  // a measurable share of the judge; the rare paths below keep theirs.
  const initial = initialState(run.fixture, run.spec);
  const flying = inFlightEligible(initial, run.lanes);
  const groups = groupByStep(run.lanes);
  const derived = groups.map(derivedOrder);
  let walk =
    (run.walk && walkFromGeneration(run.walk, run.steps, run.lanes, derived, groups, flying)) ??
    walkOrder(initial, derived, flying);
  let differences = differ(walk, run.snapshot);
  let order: readonly (readonly LaneRecord[])[] = derived;
  let inFlight: Reading = 'auto';
  let noEffect: ReadonlySet<LaneRecord> = NONE;
  let claimed: ReadonlySet<LaneRecord> = NONE;
  let instead: ReadonlyMap<string, readonly number[]> = NO_INSTEAD;
  if (walk.failures.length > 0 || differences.length > 0) {
    const found = searchOrders(initial, groups, derived, flying, run.snapshot);
    if (found) {
      ({ order, inFlight, noEffect, claimed } = found);
      walk = walkOrder(initial, order, flying, inFlight, noEffect, claimed);
      differences = [];
    } else {
      // No order explains the run: report the one that blames the fewest calls, not the derived
      // guess, so no call is listed whose outcome an order blaming no more would explain.
      const invariantsOf = (w: Walk) =>
        checkInvariants({
          fixture: run.fixture,
          spec: run.spec,
          steps: run.steps,
          trace: { observations: observationsOf(run.lanes, w.expected), snapshot: run.snapshot },
        });
      const blame = leastBlame(
        initial,
        groups,
        derived,
        flying,
        (w) => differ(w, run.snapshot).length + invariantsOf(w).length,
      );
      ({ order, inFlight, noEffect, claimed, instead, walk } = blame);
      differences = differ(walk, run.snapshot);
    }
  }
  // A faulted call that answered wrongly is a failure either way, but the checker would have
  // accepted it changing nothing (had it answered `error`): the database is held to that reading
  // too, so its diff never claims a change the checker does not require.
  const misanswered = faultedFailures(run.lanes, walk.failures);
  const others = walk.failures.length - misanswered.length;
  if (misanswered.length > 0 && (differences.length > 0 || others > 0)) {
    const quiet = quietReading(
      (q) => walkOrder(initial, order, flying, inFlight, new Set([...noEffect, ...q]), claimed),
      misanswered,
      run.snapshot,
    );
    if (quiet && quiet.failures.length <= walk.failures.length) {
      walk = quiet;
      differences = [];
    }
  }
  const trace: Trace = {
    observations: observationsOf(run.lanes, walk.expected),
    snapshot: run.snapshot,
  };
  const failures: Failure[] =
    walk.failures.length === 0 ? [] : walk.failures.map((f) => withInstead(f, instead));
  if (differences.length > 0)
    failures.push({
      kind: 'snapshot',
      differences,
      ...(misanswered.length > 0
        ? { faulted: misanswered.map((r) => ({ step: r.step, lane: r.lane })) }
        : {}),
    });
  for (const v of checkInvariants({
    fixture: run.fixture,
    spec: run.spec,
    steps: run.steps,
    trace,
  }))
    failures.push({ kind: 'invariant', ...v });
  return {
    verdict: failures.length === 0 ? { verdict: 'ok' } : { verdict: 'failed', failures },
    order: places(order),
    trace,
    noEffect: placesIn(run.lanes, noEffect),
    leftClaim: placesIn(run.lanes, claimed),
  };
}

/** No lane blamed instead of another. */
const NO_INSTEAD: ReadonlyMap<string, readonly number[]> = new Map();

/**
 * A group's derived order: the order its lanes took effect in, lane order breaking ties. A
 * plain step's group of one is its own order (every reader only reads it): no copy to sort.
 */
function derivedOrder(group: readonly LaneRecord[]): readonly LaneRecord[] {
  return group.length < 2 ? group : [...group].sort(byEffect);
}

function byEffect(a: LaneRecord, b: LaneRecord): number {
  return a.effectAt - b.effectAt || a.lane - b.lane;
}

/** How the database the walk ends with differs from the one found. */
function differ(w: Walk, snapshot: Snapshot) {
  return diffSnapshots(toSnapshot(w.state), snapshot, w.state.operation);
}

/** An outcome failure with the lanes least blame names instead of it, when it names any. */
function withInstead(f: Failure, instead: ReadonlyMap<string, readonly number[]>): Failure {
  if (f.kind !== 'outcome') return f;
  const lanes = instead.get(`${f.step}:${f.lane}`);
  return lanes ? { ...f, orInstead: lanes } : f;
}

/** The serial order as `{step, lane}`, group by group. */
function places(order: readonly (readonly LaneRecord[])[]): { step: number; lane: number }[] {
  const out: { step: number; lane: number }[] = [];
  for (const group of order) for (const r of group) out.push({ step: r.step, lane: r.lane });
  return out;
}

/** The places of the records of `lanes` that are in `set`, in lane-record order. */
function placesIn(
  lanes: readonly LaneRecord[],
  set: ReadonlySet<LaneRecord>,
): { step: number; lane: number }[] {
  const out: { step: number; lane: number }[] = [];
  if (set.size === 0) return out;
  for (const r of lanes) if (set.has(r)) out.push({ step: r.step, lane: r.lane });
  return out;
}

/** Most faulted calls whose readings `quietReading` combines (2^n walks). */
const QUIET_READINGS_MAX = 6;

/** The faulted calls among `failures`' outcome failures, by lane record. */
function faultedFailures(lanes: readonly LaneRecord[], failures: readonly Failure[]): LaneRecord[] {
  if (failures.length === 0) return [];
  const at = new Set(
    failures.flatMap((f) => (f.kind === 'outcome' && f.faulted ? [`${f.step}:${f.lane}`] : [])),
  );
  return lanes.filter((r) => at.has(`${r.step}:${r.lane}`));
}

/**
 * The reported order's walk (`walkWith`, given the calls read as quiet) in which some of the
 * `faulted` calls changed nothing, the first whose database is the one found; undefined when none is.
 */
function quietReading(
  walkWith: (quiet: readonly LaneRecord[]) => Walk,
  faulted: readonly LaneRecord[],
  snapshot: Snapshot,
): Walk | undefined {
  for (const quiet of subsets(faulted.slice(0, QUIET_READINGS_MAX))) {
    if (quiet.length === 0) continue;
    const walk = walkWith(quiet);
    if (diffSnapshots(toSnapshot(walk.state), snapshot, walk.state.operation).length === 0)
      return walk;
  }
  return undefined;
}

/**
 * The calls that may carry the in-flight answer, decided by concurrent mode's own rule on a
 * history where each step is one interval: the lanes of a group overlap, steps do not.
 */
function inFlightEligible(initial: ModelState, lanes: readonly LaneRecord[]): Set<LaneRecord> {
  // `inFlightAnswers` names none without the policy: no history to build.
  if (!declaresVisibleClaims(initial.policy)) return new Set();
  const history: HistoryEntry[] = lanes.map((rec, id) => ({
    id,
    client: rec.lane,
    event: rec.event,
    invokedAt: 2 * rec.step,
    completedAt: 2 * rec.step + 1,
    ...(rec.end.kind === 'observed' ? { observed: rec.end.observed } : {}),
  }));
  const ids = inFlightAnswers(initial, history);
  return new Set(lanes.filter((_, id) => ids.has(id)));
}

/**
 * The observations the invariants read: every call's real outcome, and for a call that crashed
 * after committing, the outcome the model gives it in the accepted order (the database holds its
 * change, so the invariants must count it). Calls that crashed before committing changed nothing
 * and are left out.
 */
function observationsOf(
  lanes: readonly LaneRecord[],
  expected: Map<LaneRecord, Observed>,
): Observation[] {
  const out: Observation[] = [];
  for (const rec of lanes) {
    if (rec.event.kind !== 'call') continue;
    const { step: s, lane, event } = rec;
    if (rec.end.kind === 'observed') out.push({ step: s, lane, event, observed: rec.end.observed });
    else if (rec.end.kind === 'crashed' && rec.end.committed) {
      const observed = expected.get(rec);
      if (observed) out.push({ step: s, lane, event, observed });
    }
  }
  return out;
}
