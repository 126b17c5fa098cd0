/**
 * Judges one sequential run: every call's outcome against the model's, the final database
 * against the model's state, and every invariant. Pure; the verdict is data.
 */

import { flatten } from '../model/flatten.ts';
import { sameOutcome } from '../model/outcome.ts';
import { initialState, toSnapshot } from '../model/state.ts';
import { step } from '../model/step.ts';
import type { Failure, RunVerdict } from '../types/verdict.ts';
import { checkInvariants } from './invariants/all-invariants.ts';
import type { RunRecord } from './run-record.ts';
import { diffSnapshots } from './snapshot-diff.ts';

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
  const differences = diffSnapshots(toSnapshot(state), run.trace.snapshot, state.operation);
  if (differences.length > 0) failures.push({ kind: 'snapshot', differences });
  for (const v of checkInvariants(run)) failures.push({ kind: 'invariant', ...v });
  return failures.length === 0 ? { verdict: 'ok' } : { verdict: 'failed', failures };
}
