/**
 * Invariant: a replay returns exactly the result its fresh call returned: historical evidence of
 * one operation, never a fresh read of the row.
 */

import { describeOutcome, sameResult } from '../../model/outcome.ts';
import type { InvariantViolation } from '../../types/verdict.ts';
import type { RunRecord } from '../run-record.ts';
import { callKey, freshByKey as freshByKeyOf, freshOks, receiptsMayExpire } from '../run-record.ts';

export const REPLAY_MATCHES_FRESH = 'a replay returns exactly its fresh call’s result';

/** Checks the invariant; undefined when it holds. */
export function checkReplayMatchesFresh(run: RunRecord): InvariantViolation | undefined {
  const freshByKey = freshByKeyOf(run);
  // Once time has passed a key may run fresh again after its receipt expired: a replay then
  // answers for the last fresh call at or before its step (its own concurrent group included:
  // a retry racing the call it repeats), never for a later incarnation of the key.
  const expiring = receiptsMayExpire(run);
  for (const o of run.trace.observations) {
    if (o.observed.kind !== 'ok' || !o.observed.replayed) continue;
    const key = callKey(run, o);
    const fresh = expiring
      ? freshOks(run.trace)
          .filter((f) => f.step <= o.step && callKey(run, f) === key)
          .at(-1)
      : freshByKey.get(key);
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
