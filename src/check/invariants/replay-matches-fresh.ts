/**
 * Invariant: a replay returns exactly the result its fresh call returned: historical evidence of
 * one operation, never a fresh read of the row.
 */

import { describeOutcome, sameResult } from '../../model/outcome.ts';
import type { InvariantViolation } from '../../types/verdict.ts';
import type { RunRecord } from '../run-record.ts';
import { callKey, freshOks } from '../run-record.ts';

export const REPLAY_MATCHES_FRESH = 'a replay returns exactly its fresh call’s result';

/** Checks the invariant; undefined when it holds. */
export function checkReplayMatchesFresh(run: RunRecord): InvariantViolation | undefined {
  const freshByKey = new Map(freshOks(run.trace).map((o) => [callKey(run.fixture, o), o]));
  for (const o of run.trace.observations) {
    if (o.observed.kind !== 'ok' || !o.observed.replayed) continue;
    const fresh = freshByKey.get(callKey(run.fixture, o));
    if (fresh?.observed.kind !== 'ok') {
      return {
        invariant: REPLAY_MATCHES_FRESH,
        message: `step ${o.step + 1} replayed ${describeOutcome(o.observed)}, but no fresh call under that key succeeded`,
        step: o.step,
      };
    }
    if (!sameResult(fresh.observed.result, o.observed.result)) {
      return {
        invariant: REPLAY_MATCHES_FRESH,
        message: `step ${o.step + 1} replayed ${describeOutcome(o.observed)}, but the fresh call at step ${fresh.step + 1} returned ${describeOutcome(fresh.observed)}`,
        step: o.step,
      };
    }
  }
  return undefined;
}
