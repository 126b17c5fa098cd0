/**
 * Walking a scheduled run's lanes through the model in a chosen serial order, under a chosen
 * reading of the calls whose effect the record leaves open (an in-flight answer, a crash after a
 * commit, a faulted call). The one step the scheduled judge (`check-scheduled-run.ts`), its order
 * search and its least-blame choice (`least-blame.ts`) all repeat. Pure.
 */
import type { Step } from '../model/events.ts';
import { type Observed, sameOutcome } from '../model/outcome.ts';
import type { ModelState } from '../model/state.ts';
import { allowedAnswer, leaveClaim, leaveError, step } from '../model/step.ts';
import type { LaneRecord } from '../types/scheduled-trace.ts';
import type { Failure } from '../types/verdict.ts';
import type { RunRecord } from './run-record.ts';

/** What a walk came to: the model's state, the calls it failed, and what the model answered. */
export interface Walk {
  readonly state: ModelState;
  readonly failures: Failure[];
  /** What the model answered for each call it stepped, by lane record. */
  readonly expected: Map<LaneRecord, Observed>;
}

/**
 * How a call eligible for the in-flight answer is read: `auto` takes the model's answer when it
 * matches and the in-flight one otherwise (the derived order's reading); a set forces the
 * in-flight reading on its members and the model's on every other call (the search's readings).
 */
export type Reading = 'auto' | ReadonlySet<LaneRecord>;

/** No lane. */
export const NONE: ReadonlySet<LaneRecord> = new Set();

/**
 * Steps the model through the groups in the given orders, collecting outcome failures.
 * `noEffect`: crashed calls (after a commit) and faulted calls read as having changed nothing;
 * `claimed`: crashed calls (after a commit) read as having left only their claim (policy
 * `claimExpiry`).
 */
export function walkOrder(
  initial: ModelState,
  ordered: readonly (readonly LaneRecord[])[],
  flying: ReadonlySet<LaneRecord>,
  reading: Reading = 'auto',
  noEffect: ReadonlySet<LaneRecord> = NONE,
  claimed: ReadonlySet<LaneRecord> = NONE,
): Walk {
  const walk: Walk = { state: initial, failures: [], expected: new Map() };
  let state = initial;
  for (const group of ordered) {
    for (const rec of group) state = judge(state, rec, walk, flying, reading, noEffect, claimed);
  }
  return { ...walk, state };
}

/** One lane against the model; records its failure (if any) and the model's answer in `walk`. */
export function judge(
  state: ModelState,
  rec: LaneRecord,
  walk: Walk,
  flying: ReadonlySet<LaneRecord>,
  reading: Reading,
  noEffect: ReadonlySet<LaneRecord> = NONE,
  claimed: ReadonlySet<LaneRecord> = NONE,
): ModelState {
  const { end, event } = rec;
  if (end.kind === 'applied') return step(state, event).state;
  if (end.kind === 'crashed') {
    if (!end.committed || noEffect.has(rec)) return state;
    if (claimed.has(rec)) return leaveClaim(state, event);
    const t = step(state, event);
    if (t.outcome) walk.expected.set(rec, t.outcome);
    return t.state;
  }
  // An injected fault may surface as `error`; then nothing may have changed, except, under a
  // declared `storesErrors`, the error recorded under the key by a write after the fault.
  if (end.faulted && end.observed.kind === 'error')
    return end.durableAfterFault ? leaveError(state, event) : state;
  // The in-flight answer of a declared policy: `refused: conflict`, and nothing changed.
  if (reading !== 'auto' && reading.has(rec)) return state;
  const t = step(state, event);
  if (!t.outcome) return t.state;
  // Where the contract allows two answers (`Transition.alsoAllowed`), the one given is expected.
  const answer = allowedAnswer(t, end.observed);
  walk.expected.set(rec, answer ?? t.outcome);
  if (event.kind === 'call' && answer === undefined) {
    if (reading === 'auto' && flying.has(rec)) return state;
    walk.failures.push({
      kind: 'outcome',
      step: rec.step,
      lane: rec.lane,
      event,
      expected: t.outcome,
      actual: end.observed,
      ...(t.alsoAllowed ? { alsoAllowed: t.alsoAllowed } : {}),
      ...(end.faulted ? { faulted: true } : {}),
    });
    // A faulted call read as the fault having surfaced: wrong answer, nothing changed.
    if (end.faulted && noEffect.has(rec)) return state;
  }
  return t.state;
}

/**
 * The derived order's walk read off generation's own (`RunRecord.walk`: each event's outcome in
 * `flatten` order, groups in lane order, and the final state), when the two are the same walk:
 * every group took effect in lane order, and no lane crashed, had a fault or may carry the
 * in-flight answer, so `walkOrder` would step the model over the same events in the same order
 * and read every outcome the way generation did. Undefined when any of that fails, or when the
 * records are not `steps`' events one for one: the caller walks the model itself. Most runs
 * qualify (seven in ten of a reference check), and stepping the model was about a third of
 * judging one.
 */
export function walkFromGeneration(
  generated: NonNullable<RunRecord['walk']>,
  steps: readonly Step[],
  lanes: readonly LaneRecord[],
  derived: readonly (readonly LaneRecord[])[],
  groups: readonly (readonly LaneRecord[])[],
  flying: ReadonlySet<LaneRecord>,
): Walk | undefined {
  if (flying.size > 0 || lanes.length !== generated.outcomes.length) return undefined;
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g] as readonly LaneRecord[];
    const order = derived[g] as readonly LaneRecord[];
    for (let i = 0; i < group.length; i++) if (order[i] !== group[i]) return undefined;
  }
  const walk: Walk = { state: generated.state, failures: [], expected: new Map() };
  let at = 0;
  for (const s of steps) {
    const events = s.kind === 'concurrent' ? s.events : [s];
    for (const event of events) {
      const rec = lanes[at];
      const outcome = generated.outcomes[at++];
      if (!rec || rec.event !== event) return undefined;
      const { end } = rec;
      if (end.kind === 'crashed' || (end.kind === 'observed' && end.faulted)) return undefined;
      // As `judge` reads them: an applied event's outcome is not kept, nor checked.
      if (end.kind === 'applied' || !outcome) continue;
      walk.expected.set(rec, outcome);
      if (event.kind === 'call' && !sameOutcome(outcome, end.observed))
        walk.failures.push({
          kind: 'outcome',
          step: rec.step,
          lane: rec.lane,
          event,
          expected: outcome,
          actual: end.observed,
        });
    }
  }
  return at === lanes.length ? walk : undefined;
}
