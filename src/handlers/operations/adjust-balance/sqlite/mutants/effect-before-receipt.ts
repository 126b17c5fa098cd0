/**
 * Mutant (adjust-balance): applies the delta before looking the receipt up, and a found receipt
 * answers without undoing it. A retry after a lost response replays the stored balance, but the
 * delta has been applied a second time: the account is short (or long) by one delta.
 * Real-world class: double application on retry, the idempotency record consulted as a log
 * after the side effect instead of as a guard before it.
 * Killed by: sequential mode (call, retry: the snapshot's balance differs).
 */
import { effectBeforeReceipt } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { adjustBalanceParts } from '../adjust-balance-steps.ts';

export default defineOperationMutant(adjustBalanceParts, {
  name: 'adjust-balance-effect-before-receipt',
  description:
    'Applies the delta before the receipt lookup, so a retry replays but applies the delta twice.',
  ...effectBeforeReceipt(),
});
