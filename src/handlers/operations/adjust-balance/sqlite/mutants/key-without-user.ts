/**
 * Mutant (adjust-balance): looks receipts up by workspace, tool and request id only. When bob
 * picks the request id alice used in their workspace, his adjustment is answered with alice's
 * result and never applied.
 * Real-world class: idempotency keys scoped too widely (per tenant, not per caller).
 * Killed by: sequential mode (alice r1 +100 on account 1, then bob r1 +100 on account 1).
 */
import { lookupWithoutUser } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { adjustBalanceParts, adjustBalanceSql } from '../adjust-balance-steps.ts';

export default defineOperationMutant(adjustBalanceParts, {
  name: 'adjust-balance-key-without-user',
  description:
    "Looks receipts up by workspace, tool and request id only, so a user gets another user's adjustment.",
  ...lookupWithoutUser(adjustBalanceSql),
});
