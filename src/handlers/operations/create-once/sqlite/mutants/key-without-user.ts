/**
 * Mutant (create-once): looks receipts up by workspace, tool and request id only. When bob picks
 * the request id alice used in their workspace, he gets alice's invoice back (or `keyReuse`) and
 * his own invoice is never created.
 * Real-world class: idempotency keys scoped too widely (per tenant, not per caller).
 * Killed by: sequential mode (alice r1, then bob r1 for the same customer and amount).
 */
import { lookupWithoutUser } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { createOnceParts, createOnceSql } from '../create-once-steps.ts';

export default defineOperationMutant(createOnceParts, {
  name: 'create-once-key-without-user',
  description:
    "Looks receipts up by workspace, tool and request id only, so a user gets another user's invoice.",
  ...lookupWithoutUser(createOnceSql),
});
