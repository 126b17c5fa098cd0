/**
 * Mutant (adjust-balance): the receipt answers before current access is checked, so a retry
 * for an account that has since moved to another workspace, or been closed (deleted), still
 * replays its old balance.
 * Real-world class: an idempotency cache short-circuiting ahead of authorisation.
 * Killed by: sequential mode (call, delete the account, retry: replay, not `unavailable`).
 */
import { receiptBeforeAccess } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { adjustBalanceParts } from '../adjust-balance-steps.ts';

export default defineOperationMutant(adjustBalanceParts, {
  name: 'adjust-balance-access-after-receipt',
  description:
    'Looks the receipt up before checking current access, so a moved or deleted account still replays.',
  ...receiptBeforeAccess(),
});
