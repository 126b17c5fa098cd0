/**
 * Mutant (transfer): looks the receipt up before checking current access to the two accounts.
 * After either account is moved to another workspace or deleted, a retry still replays the old
 * transfer, where the contract refuses it as unavailable.
 * Real-world class: an idempotency cache short-circuiting ahead of authorisation.
 * Killed by: sequential mode (transfer, move or delete an account, retry: a replay where the
 * model says `unavailable`).
 */
import { receiptBeforeAccess } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { transferParts } from '../transfer-sql.ts';

export default defineOperationMutant(transferParts, {
  name: 'transfer-access-after-receipt',
  description:
    'Looks the receipt up before checking access to the accounts, so a transfer whose account moved or was deleted still replays.',
  ...receiptBeforeAccess(),
});
