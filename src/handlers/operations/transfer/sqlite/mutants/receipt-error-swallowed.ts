/**
 * Mutant (transfer): swallows a failing receipt insert and commits both legs anyway. While the
 * receipt store fails, a transfer succeeds with no receipt, so its retry moves the money again.
 * Real-world class: a fail-open idempotency store, writing the record treated as best effort.
 * Killed by: sequential mode (the store fails, a transfer: `ok` where the model says `error`).
 */
import { swallowReceiptError } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { transferParts, transferSteps } from '../transfer-sql.ts';

export default defineOperationMutant(transferParts, {
  name: 'transfer-receipt-error-swallowed',
  description:
    'Swallows a failing receipt insert and commits both legs, so the transfer succeeds with no receipt.',
  ...swallowReceiptError(transferSteps),
});
