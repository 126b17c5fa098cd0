/**
 * Mutant (adjust-balance): the balance update commits in one transaction and the receipt is
 * inserted afterwards, on its own. While the receipt store fails, the caller gets `error` but
 * the balance has changed, without a receipt; the client's retry then applies the delta again.
 * Real-world class: dual write, the idempotency record kept outside the business transaction.
 * Killed by: sequential mode (store fails, call: the balance changed where the model's did not).
 */
import { receiptAfterCommit } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { adjustBalanceParts, adjustBalanceSteps } from '../adjust-balance-steps.ts';

export default defineOperationMutant(adjustBalanceParts, {
  name: 'adjust-balance-receipt-after-commit',
  description:
    'Inserts the receipt after the balance update has committed, so a failing store leaves a change without a receipt.',
  ...receiptAfterCommit(adjustBalanceSteps),
});
