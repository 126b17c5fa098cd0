/**
 * Walking a scheduled run's lanes through the model in a chosen serial order, under a chosen
 * reading of the calls whose effect the record leaves open (an in-flight answer, a crash after a
 * commit, a faulted call). The one step the scheduled judge (`check-scheduled-run.ts`), its order
 * search and its least-blame choice (`least-blame.ts`) all repeat. Pure.
 */
import { type Observed, sameOutcome } from '../model/outcome.ts';
import type { ModelState } from '../model/state.ts';
import { leaveClaim, step } from '../model/step.ts';
import type { LaneRecord } from '../types/scheduled-trace.ts';
import type { Failure } from '../types/verdict.ts';

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
  // An injected fault may surface as `error`; then nothing may have changed.
  if (end.faulted && end.observed.kind === 'error') return state;
  // The in-flight answer of a declared policy: `refused: conflict`, and nothing changed.
  if (reading !== 'auto' && reading.has(rec)) return state;
  const t = step(state, event);
  if (t.outcome) walk.expected.set(rec, t.outcome);
  if (event.kind === 'call' && t.outcome && !sameOutcome(t.outcome, end.observed)) {
    if (reading === 'auto' && flying.has(rec)) return state;
    walk.failures.push({
      kind: 'outcome',
      step: rec.step,
      lane: rec.lane,
      event,
      expected: t.outcome,
      actual: end.observed,
      ...(end.faulted ? { faulted: true } : {}),
    });
    // A faulted call read as the fault having surfaced: wrong answer, nothing changed.
    if (end.faulted && noEffect.has(rec)) return state;
  }
  return t.state;
}
