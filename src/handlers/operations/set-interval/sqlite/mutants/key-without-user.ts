/**
 * Mutant: the receipt lookup leaves the user out of the key, so two users of one workspace who
 * happen to pick the same request id share receipts: one gets the other's result, or `keyReuse`
 * for a request it never made. Real-world class: idempotency keys scoped too widely (per tenant
 * or global instead of per caller).
 */

import { TOOL } from '../../../../../model/world.ts';
import type { StoredReceipt } from '../set-interval-steps.ts';
import { defineStepMutant } from './define-step-mutant.ts';

/** The reference, except that the receipt lookup ignores the user. */
export default defineStepMutant({
  name: 'key-without-user',
  description:
    "Looks receipts up by workspace, tool and request id only, so a user meets another user's receipt.",
  steps: {
    findReceipt(db, principal, r) {
      return db
        .prepare(
          'SELECT payload, response FROM receipts WHERE workspace_id = ? AND tool = ? AND request_id = ?',
        )
        .get(principal.workspace, TOOL, r.requestId) as StoredReceipt | undefined;
    },
  },
});
