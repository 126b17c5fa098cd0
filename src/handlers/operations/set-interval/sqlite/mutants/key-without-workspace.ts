/**
 * Mutant: the receipt lookup leaves the workspace out of the key, so one user acting in two
 * workspaces meets, in the second, the receipts written in the first. Real-world class: a
 * multi-tenant query missing its tenant column.
 */
import { TOOL } from '../../../../../model/world.ts';
import type { StoredReceipt } from '../set-interval-steps.ts';
import { defineStepMutant } from './define-step-mutant.ts';

/** The reference, except that the receipt lookup ignores the workspace. */
export default defineStepMutant({
  name: 'key-without-workspace',
  description:
    "Looks receipts up by user, tool and request id only, so a user meets their other workspace's receipt.",
  steps: {
    findReceipt(db, principal, r) {
      return db
        .prepare(
          'SELECT payload, response FROM receipts WHERE user_id = ? AND tool = ? AND request_id = ?',
        )
        .get(principal.user, TOOL, r.requestId) as StoredReceipt | undefined;
    },
  },
});
