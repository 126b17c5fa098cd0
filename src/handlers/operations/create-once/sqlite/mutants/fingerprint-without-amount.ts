/**
 * Mutant (create-once): compares only the customer with the stored payload, so a key reused for
 * the same customer with another amount replays the first invoice: the client believes the new
 * amount was invoiced.
 * Real-world class: a partial request fingerprint (the path's customer id checked, the body not).
 * Killed by: sequential mode (r1 for 500, then r1 for 700: replay, not `keyReuse`).
 */
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { replayOrReuse, storedPayload } from '../../../../sqlite/operation-steps.ts';
import { createOnceParts } from '../create-once-steps.ts';

export default defineOperationMutant(createOnceParts, {
  name: 'create-once-fingerprint-without-amount',
  description:
    'Compares only the customer with the stored payload, so a key reused with another amount replays.',
  steps: {
    // The bug: the amount is not part of the comparison.
    answerReceipt: (_db, stored, r) =>
      replayOrReuse(stored, storedPayload(stored).customer === r.customerId),
  },
});
