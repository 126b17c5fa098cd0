/**
 * Mutant (create-once): a failing receipt insert is ignored and the invoice commits without its
 * receipt; the caller sees a fresh success, and its retry creates a second invoice.
 * Real-world class: a fail-open idempotency store (saving the record treated as best effort).
 * Killed by: sequential mode (store fails, call: `ok` where the model says `error`).
 */
import { swallowReceiptError } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { createOnceParts, createOnceSteps } from '../create-once-steps.ts';

export default defineOperationMutant(createOnceParts, {
  name: 'create-once-receipt-error-swallowed',
  description:
    'Swallows a failing receipt insert and commits the invoice, so the create succeeds with no receipt.',
  ...swallowReceiptError(createOnceSteps),
});
