/**
 * Mutant (create-once): inserts the invoice before looking the receipt up, and a found receipt
 * answers without undoing the insert. A retry after a lost response replays the right invoice,
 * but a second invoice is committed beside it: the double create.
 * Real-world class: the idempotency record consulted as a log after the side effect, not as a
 * guard before it.
 * Killed by: sequential mode (call, retry: the snapshot has an extra invoice).
 */
import { effectBeforeReceipt } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { createOnceParts } from '../create-once-steps.ts';

export default defineOperationMutant(createOnceParts, {
  name: 'create-once-receipt-after-insert',
  description:
    'Inserts the invoice before the receipt lookup, so a retry replays but leaves a second invoice behind.',
  ...effectBeforeReceipt(),
});
