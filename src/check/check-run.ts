/**
 * Judges one sequential run: every call's outcome against the model's, the final database
 * against the model's state, and every invariant. Pure; the verdict is data.
 */
import type { CallEvent } from '../model/events.ts';
import { flatten } from '../model/flatten.ts';
import { type Observed, sameOutcome } from '../model/outcome.ts';
import { initialState, toSnapshot } from '../model/state.ts';
import { step } from '../model/step.ts';
import { checkInvariants } from './invariants/all-invariants.ts';
import type { LinearizabilityFailure } from './linearizability-failure.ts';
import type { InvariantViolation, RunRecord } from './run-record.ts';
import { diffSnapshots, type SnapshotDifference } from './snapshot-diff.ts';

/** One reason a run failed. */
export type Failure =
  | {
      readonly kind: 'outcome';
      readonly step: number;
      readonly lane: number;
      readonly event: CallEvent;
      readonly expected: Observed;
      readonly actual: Observed;
    }
  | { readonly kind: 'snapshot'; readonly differences: readonly SnapshotDifference[] }
  | ({ readonly kind: 'invariant' } & InvariantViolation)
  /** Concurrent mode: no serial order explains the outcomes (longest fitting prefix, stuck calls). */
  | LinearizabilityFailure;

/** The verdict on one run. Failures are ordered: outcomes first (in step order), then the database, then invariants. */
export type RunVerdict =
  | { readonly verdict: 'ok' }
  | { readonly verdict: 'failed'; readonly failures: readonly Failure[] };

/** Checks a sequential run against the model. */
export function checkRun(run: RunRecord): RunVerdict {
  const failures: Failure[] = [];
  let state = initialState(run.fixture);
  let next = 0;
  for (const placed of flatten(run.steps)) {
    const t = step(state, placed.event);
    state = t.state;
    if (placed.event.kind !== 'call' || !t.outcome) continue;
    const actual = run.trace.observations[next++];
    if (!actual)
      throw new Error(`trace has no observation for the call at step ${placed.step + 1}`);
    if (!sameOutcome(t.outcome, actual.observed)) {
      failures.push({
        kind: 'outcome',
        step: placed.step,
        lane: placed.lane,
        event: placed.event,
        expected: t.outcome,
        actual: actual.observed,
      });
    }
  }
  const differences = diffSnapshots(toSnapshot(state), run.trace.snapshot);
  if (differences.length > 0) failures.push({ kind: 'snapshot', differences });
  for (const v of checkInvariants(run)) failures.push({ kind: 'invariant', ...v });
  return failures.length === 0 ? { verdict: 'ok' } : { verdict: 'failed', failures };
}
