/**
 * Mutant (transfer): looks receipts up by workspace, tool and request id, without the user. A
 * second user of the workspace who picks the same request id gets the first user's transfer
 * replayed (or key reuse) instead of a transfer of their own.
 * Real-world class: a key scoped too widely, per tenant instead of per caller.
 * Killed by: sequential mode (two users, one request id).
 */
import { lookupWithoutUser } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { transferParts, transferSql } from '../transfer-sql.ts';

export default defineOperationMutant(transferParts, {
  name: 'transfer-key-without-user',
  description:
    "Looks receipts up by workspace, tool and request id only, so a user gets another user's transfer.",
  ...lookupWithoutUser(transferSql),
});
