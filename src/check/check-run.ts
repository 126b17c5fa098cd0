/**
 * Judges one sequential run: every call's outcome against the model's, the final database
 * against the model's state, and every invariant. Pure; the verdict is data.
 */

import type { Event, Step } from '../model/events.ts';
import { type Observed, sameOutcome } from '../model/outcome.ts';
import { initialState, toSnapshot } from '../model/state.ts';
import { step } from '../model/step.ts';
import type { Failure, RunVerdict } from '../types/verdict.ts';
import { checkInvariants } from './invariants/all-invariants.ts';
import type { RunRecord } from './run-record.ts';
import { diffSnapshots } from './snapshot-diff.ts';

/**
 * Checks a sequential run against the model. With `run.walk` (generation's own stepping of the
 * model over these steps) it reads each outcome and the final state from there instead of
 * stepping the model a second time; the verdict is the same either way.
 */
export function checkRun(run: RunRecord): RunVerdict {
  const failures: Failure[] = [];
  const walk = run.walk;
  let state = walk ? walk.state : initialState(run.fixture, run.spec);
  let next = 0;
  let index = 0;
  // Groups in lane order, as `flatten` walks them (and generation's walk was recorded); one
  // loop with no closure, as it runs for every run.
  for (let at = 0; at < run.steps.length; at++) {
    const s = run.steps[at] as Step;
    const lanes = s.kind === 'concurrent' ? s.events.length : 1;
    for (let lane = 0; lane < lanes; lane++) {
      const event = s.kind === 'concurrent' ? (s.events[lane] as Event) : s;
      let outcome: Observed | undefined;
      if (walk) outcome = walk.outcomes[index++];
      else {
        const t = step(state, event);
        state = t.state;
        outcome = t.outcome;
      }
      if (event.kind !== 'call' || !outcome) continue;
      const actual = run.trace.observations[next++];
      if (!actual) throw new Error(`trace has no observation for the call at step ${at + 1}`);
      if (!sameOutcome(outcome, actual.observed))
        failures.push({
          kind: 'outcome',
          step: at,
          lane,
          event,
          expected: outcome,
          actual: actual.observed,
        });
    }
  }
  if (walk && index !== walk.outcomes.length)
    throw new Error(`the model's walk has ${walk.outcomes.length} events, the steps ${index}`);
  const differences = diffSnapshots(toSnapshot(state), run.trace.snapshot, state.operation);
  if (differences.length > 0) failures.push({ kind: 'snapshot', differences });
  for (const v of checkInvariants(run)) failures.push({ kind: 'invariant', ...v });
  return failures.length === 0 ? { verdict: 'ok' } : { verdict: 'failed', failures };
}
