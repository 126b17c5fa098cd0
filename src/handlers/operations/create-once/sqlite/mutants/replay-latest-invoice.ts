/**
 * Mutant (create-once): a recognised retry answers with the customer's latest invoice instead of
 * the stored result. Alone it is right; after another invoice for the same customer, the retry
 * of the first reports the second as its own, and the client records the wrong invoice id.
 * Real-world class: a replay rebuilt from current state ("find the invoice we created") instead
 * of a stored response, the receipt kept only as a "done" marker.
 * Killed by: sequential mode (r1 for customer 1, r2 for customer 1, retry r1).
 */

import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { replayOrReuse } from '../../../../sqlite/operation-steps.ts';
import { canonicalText } from '../../../../sqlite/receipt-store.ts';
import { cachedStatement } from '../../../../sqlite/statement-cache.ts';
import { createOnceParts, invoicePayload } from '../create-once-steps.ts';

/** The newest invoice of a customer, as a result. */
function latestInvoice(db: Parameters<typeof cachedStatement>[0], customerId: number) {
  const row = cachedStatement(
    db,
    'SELECT id, amount FROM invoices WHERE customer_id = ? ORDER BY id DESC LIMIT 1',
  ).get(customerId) as { id: number; amount: number };
  return { invoiceId: row.id, customerId, amount: row.amount };
}

export default defineOperationMutant(createOnceParts, {
  name: 'create-once-replay-latest-invoice',
  description:
    "Replays the customer's latest invoice instead of the stored one, so a retry after another invoice reports that invoice.",
  steps: {
    answerReceipt: (db, stored, r) =>
      // The bug: the newest invoice of the customer stands in for the one this key created.
      replayOrReuse(stored, stored.payload === canonicalText(invoicePayload(r)), () =>
        latestInvoice(db, r.customerId),
      ),
  },
});
