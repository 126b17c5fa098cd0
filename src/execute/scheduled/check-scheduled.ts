/**
 * Judges one scheduled run against the model. Pure: no thread, no database.
 *
 * Why not the linearizability checker: in scheduled mode the coordinator granted every statement
 * itself, so it knows what a concurrent run can only guess. It knows the order in which the lanes
 * of a group took effect (the grant of each call's commit), so it derives one serial order and
 * checks the model along it, exactly as sequential mode does, with expected-versus-actual per call.
 * It knows whether a crashed call committed before it died, so a crash is not "may or may not
 * have happened": before commit the model expects nothing changed, after it the call's change
 * (its outcome is unknown, the client never heard). And it knows which calls had a statement
 * fault injected: such a call may answer `error`, and then must have changed nothing; a call that
 * recovered (retried the statement) must answer what the model says.
 *
 * The derived order is a good first guess, not a proof: a handler may take effect somewhere other
 * than its commit (a scope read at the start, a read-only answer from an earlier snapshot). So
 * before reporting a failure the other orders of each group are searched (groups are at most a
 * few lanes and are separated in real time, so this is small and bounded); the contract only asks
 * that *some* serial order consistent with real time explain every outcome and the final database.
 * The failures reported are those of the derived order, which is what the lanes view shows.
 */
import type { Failure, RunVerdict } from '../../check/check-run.ts';
import { checkInvariants } from '../../check/invariants/all-invariants.ts';
import { diffSnapshots } from '../../check/snapshot-diff.ts';
import type { Step } from '../../model/events.ts';
import { type Observed, sameOutcome } from '../../model/outcome.ts';
import { initialState, type ModelState, toSnapshot } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import type { Fixture, Snapshot } from '../../model/world.ts';
import type { Observation, Trace } from '../trace.ts';
import type { LaneRecord } from './scheduled-trace.ts';

/** A scheduled run, ready to be checked. */
export interface ScheduledRunRecord {
  readonly fixture: Fixture;
  readonly steps: readonly Step[];
  /** Every lane of every step, in step order then lane order. */
  readonly lanes: readonly LaneRecord[];
  readonly snapshot: Snapshot;
}

/** The verdict, the serial order it rests on, and the trace the invariants read. */
export interface ScheduledVerdict {
  readonly verdict: RunVerdict;
  /** The serial order accepted (or, when failing, the derived one), as `{step, lane}`. */
  readonly order: readonly { readonly step: number; readonly lane: number }[];
  readonly trace: Trace;
}

/** Most group orders the search walks before it gives up and keeps the derived order's failures. */
export const ORDER_SEARCH_MAX = 20_000;

/** Checks a scheduled run (see the file comment for what is expected of crashes and faults). */
export function checkScheduledRun(run: ScheduledRunRecord): ScheduledVerdict {
  const initial = initialState(run.fixture);
  const groups = groupByStep(run.lanes);
  const derived = groups.map((g) =>
    [...g].sort((a, b) => a.effectAt - b.effectAt || a.lane - b.lane),
  );
  let walk = walkOrder(initial, derived);
  let differences = diffSnapshots(toSnapshot(walk.state), run.snapshot);
  let order = derived;
  if (walk.failures.length > 0 || differences.length > 0) {
    const found = searchOrders(initial, groups, derived, run.snapshot);
    if (found) {
      order = found;
      walk = walkOrder(initial, found);
      differences = [];
    }
  }
  const trace: Trace = {
    observations: observationsOf(run.lanes, walk.expected),
    snapshot: run.snapshot,
  };
  const failures: Failure[] = [...walk.failures];
  if (differences.length > 0) failures.push({ kind: 'snapshot', differences });
  for (const v of checkInvariants({ fixture: run.fixture, steps: run.steps, trace }))
    failures.push({ kind: 'invariant', ...v });
  return {
    verdict: failures.length === 0 ? { verdict: 'ok' } : { verdict: 'failed', failures },
    order: order.flat().map((r) => ({ step: r.step, lane: r.lane })),
    trace,
  };
}

interface Walk {
  readonly state: ModelState;
  readonly failures: Failure[];
  /** What the model answered for each call it stepped, by lane record. */
  readonly expected: Map<LaneRecord, Observed>;
}

/** Steps the model through the groups in the given orders, collecting outcome failures. */
function walkOrder(initial: ModelState, ordered: readonly (readonly LaneRecord[])[]): Walk {
  const walk: Walk = { state: initial, failures: [], expected: new Map() };
  let state = initial;
  for (const group of ordered) {
    for (const rec of group) state = judge(state, rec, walk);
  }
  return { ...walk, state };
}

/** One lane against the model; records its failure (if any) and the model's answer in `walk`. */
function judge(state: ModelState, rec: LaneRecord, walk: Walk): ModelState {
  const { end, event } = rec;
  if (end.kind === 'applied') return step(state, event).state;
  if (end.kind === 'crashed') {
    if (!end.committed) return state;
    const t = step(state, event);
    if (t.outcome) walk.expected.set(rec, t.outcome);
    return t.state;
  }
  // An injected fault may surface as `error`; then nothing may have changed.
  if (end.faulted && end.observed.kind === 'error') return state;
  const t = step(state, event);
  if (t.outcome) walk.expected.set(rec, t.outcome);
  if (event.kind === 'call' && t.outcome && !sameOutcome(t.outcome, end.observed)) {
    walk.failures.push({
      kind: 'outcome',
      step: rec.step,
      lane: rec.lane,
      event,
      expected: t.outcome,
      actual: end.observed,
    });
  }
  return t.state;
}

/** A set of group orders with no failure and the final database right, or undefined. */
function searchOrders(
  initial: ModelState,
  groups: readonly (readonly LaneRecord[])[],
  derived: readonly (readonly LaneRecord[])[],
  snapshot: Snapshot,
): LaneRecord[][] | undefined {
  let budget = ORDER_SEARCH_MAX;
  const chosen: LaneRecord[][] = [];
  const visit = (i: number, state: ModelState): boolean => {
    if (i === groups.length) return diffSnapshots(toSnapshot(state), snapshot).length === 0;
    for (const order of permutationsFirst(derived[i] ?? [], groups[i] ?? [])) {
      if (--budget < 0) return false;
      const walk: Walk = { state, failures: [], expected: new Map() };
      let next = state;
      for (const rec of order) next = judge(next, rec, walk);
      if (walk.failures.length > 0) continue;
      chosen[i] = order;
      if (visit(i + 1, next)) return true;
    }
    return false;
  };
  return visit(0, initial) ? chosen.slice(0, groups.length) : undefined;
}

/** Every order of `lanes`, the derived one first. */
function permutationsFirst(
  first: readonly LaneRecord[],
  lanes: readonly LaneRecord[],
): LaneRecord[][] {
  const all = permutations([...lanes]);
  const key = (o: readonly LaneRecord[]) => o.map((r) => r.lane).join(',');
  const firstKey = key(first);
  return [[...first], ...all.filter((o) => key(o) !== firstKey)];
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  const out: T[][] = [];
  items.forEach((item, i) => {
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const p of permutations(rest)) out.push([item, ...p]);
  });
  return out;
}

function groupByStep(lanes: readonly LaneRecord[]): LaneRecord[][] {
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
