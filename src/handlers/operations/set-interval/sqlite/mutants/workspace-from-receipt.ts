/**
 * Mutant: when a receipt exists, access is judged by the workspace the receipt was written in
 * rather than the automation's current workspace ("the caller owns this receipt, so may see
 * its result"). A moved automation still replays to its old workspace; a deleted one is refused.
 * Real-world class: authorisation against stored evidence instead of the live resource.
 */

import { keyOf } from '../set-interval-steps.ts';
import { defineStepMutant } from './define-step-mutant.ts';

/** The reference, except that a receipt's workspace stands in for the row's. */
export default defineStepMutant({
  name: 'workspace-from-receipt',
  description:
    "Checks the principal's workspace against the receipt's instead of the row's, so a moved automation replays.",
  steps: {
    canAccess(db, principal, r) {
      const row = db
        .prepare('SELECT workspace_id FROM automations WHERE id = ?')
        .get(r.automationId) as { workspace_id: string } | undefined;
      const receipt = db
        .prepare(
          'SELECT workspace_id FROM receipts WHERE workspace_id = ? AND user_id = ? AND tool = ? AND request_id = ?',
        )
        .get(...keyOf(principal, r)) as { workspace_id: string } | undefined;
      return row !== undefined && (receipt ?? row).workspace_id === principal.workspace;
    },
  },
});
