/**
 * Mutant: a failing receipt insert is logged and ignored, and the row change commits without
 * its receipt. The caller sees a fresh success, and its retry writes a second time. Real-world
 * class: a fail-open idempotency store (writing the record treated as best effort).
 */
import { isWriteFailure } from '../../../../sqlite/transaction.ts';
import { referenceSteps } from '../set-interval-steps.ts';
import { defineStepMutant } from './define-step-mutant.ts';

/** The reference, except that a receipt-store failure is swallowed. */
export default defineStepMutant({
  name: 'receipt-error-swallowed',
  description:
    'Swallows a failing receipt insert and commits the row change, so the write succeeds with no receipt.',
  steps: {
    insertReceipt(db, principal, r, result) {
      try {
        referenceSteps.insertReceipt(db, principal, r, result);
      } catch (thrown) {
        if (!isWriteFailure(thrown)) throw thrown;
      }
    },
  },
});
