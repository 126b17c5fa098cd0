/**
 * Mutant: a replay returns the stored result exactly as it was first sent, without marking it
 * as replayed, so the client cannot tell historical evidence from a fresh write and may overwrite
 * newer state with it. Real-world class: idempotency metadata dropped on the way out (no
 * `Idempotent-Replayed` header or flag).
 */
import { outcome } from '../../../../../model/outcome.ts';
import { referenceSteps } from '../set-interval-steps.ts';
import { defineStepMutant } from './define-step-mutant.ts';

/** The reference, except that a replay is reported as fresh. */
export default defineStepMutant({
  name: 'replay-not-flagged',
  description:
    'Returns a replay as a fresh result (replayed: false), so a retry looks like a new write.',
  steps: {
    answerReceipt(db, stored, r) {
      const answer = referenceSteps.answerReceipt(db, stored, r);
      return answer.kind === 'ok' ? outcome.fresh(answer.result) : answer;
    },
  },
});
