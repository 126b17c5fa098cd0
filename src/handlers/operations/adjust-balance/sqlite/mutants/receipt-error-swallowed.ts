/**
 * Mutant (adjust-balance): a failing receipt insert is ignored and the update commits without
 * its receipt; the caller sees a fresh success, and its retry applies the delta a second time.
 * Real-world class: a fail-open idempotency store (saving the record treated as best effort).
 * Killed by: sequential mode (store fails, call: `ok` where the model says `error`).
 */
import { swallowReceiptError } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { adjustBalanceParts, adjustBalanceSteps } from '../adjust-balance-steps.ts';

export default defineOperationMutant(adjustBalanceParts, {
  name: 'adjust-balance-receipt-error-swallowed',
  description:
    'Swallows a failing receipt insert and commits the update, so the adjustment succeeds with no receipt.',
  ...swallowReceiptError(adjustBalanceSteps),
});
