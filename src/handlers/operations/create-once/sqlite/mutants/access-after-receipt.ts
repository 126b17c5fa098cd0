/**
 * Mutant (create-once): the receipt answers before current access is checked, so a retry for a
 * customer that has since moved to another workspace, or been deleted, still replays its invoice.
 * Real-world class: an idempotency cache short-circuiting ahead of authorisation (middleware
 * mounted before the route's access checks).
 * Killed by: sequential mode (call, move the customer away, retry: replay, not `unavailable`).
 */
import { receiptBeforeAccess } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { createOnceParts } from '../create-once-steps.ts';

export default defineOperationMutant(createOnceParts, {
  name: 'create-once-access-after-receipt',
  description:
    'Looks the receipt up before checking current access, so a moved or deleted customer still replays.',
  ...receiptBeforeAccess(),
});
