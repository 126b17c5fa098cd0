/**
 * Mutant (create-once): deduplicates by what is asked, not by the key: a call whose customer and
 * amount match any receipt of the workspace replays that receipt's invoice. Two genuinely
 * separate invoices of the same amount (new request ids) collapse into one; the second is never
 * created.
 * Real-world class: content-based deduplication (a hash of the body used as the idempotency key).
 * Killed by: sequential mode (r1 for customer 1 and 500, then r2 for the same: replay, not fresh).
 */

import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import type { StoredReceipt } from '../../../../sqlite/operation-steps.ts';
import { canonicalText } from '../../../../sqlite/receipt-store.ts';
import { cachedStatement } from '../../../../sqlite/statement-cache.ts';
import { createOnceParts, invoicePayload } from '../create-once-steps.ts';

export default defineOperationMutant(createOnceParts, {
  name: 'create-once-dedupe-by-content',
  description:
    'Finds receipts by workspace and payload instead of by key, so two separate invoices of one amount collapse into one.',
  steps: {
    findReceipt(db, caller, r) {
      return cachedStatement(
        db,
        'SELECT payload, response FROM receipts WHERE workspace_id = ? AND tool = ? AND payload = ?',
      ).get(caller.workspace, createOnceParts.op.spec.tool, canonicalText(invoicePayload(r))) as
        | StoredReceipt
        | undefined;
    },
  },
});
