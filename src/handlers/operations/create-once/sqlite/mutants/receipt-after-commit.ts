/**
 * Mutant (create-once): the invoice commits in one transaction and the receipt is inserted
 * afterwards, on its own. While the receipt store fails, the caller gets `error` but the invoice
 * stays, without a receipt; the client's retry then creates a second one.
 * Real-world class: dual write, the idempotency record kept outside the business transaction
 * (middleware saving it after the handler returns, a separate store such as Redis).
 * Killed by: sequential mode (store fails, call: an invoice the model does not have).
 */
import { receiptAfterCommit } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { createOnceParts, createOnceSteps } from '../create-once-steps.ts';

export default defineOperationMutant(createOnceParts, {
  name: 'create-once-receipt-after-commit',
  description:
    'Inserts the receipt after the invoice has committed, so a failing store leaves an invoice without a receipt.',
  ...receiptAfterCommit(createOnceSteps),
});
