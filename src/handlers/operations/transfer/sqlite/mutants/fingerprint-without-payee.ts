/**
 * Mutant (transfer): compares only the debited account and the amount with the stored payload.
 * A key reused for the same amount to another payee replays the first transfer's result instead
 * of answering `keyReuse`: the client believes the money went where it did not.
 * Real-world class: a partial fingerprint, the second target of a multi-row write left out of
 * the request hash.
 * Killed by: sequential mode (a transfer, then its key reused with another payee).
 */
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { replayOrReuse, storedPayload } from '../../../../sqlite/operation-steps.ts';
import { transferParts } from '../transfer-sql.ts';

export default defineOperationMutant(transferParts, {
  name: 'transfer-fingerprint-without-payee',
  description:
    'Compares only the debited account and the amount with the stored payload, so a key reused for another payee replays.',
  steps: {
    answerReceipt(_db, stored, r) {
      const p = storedPayload(stored);
      return replayOrReuse(stored, p.from === r.fromAccountId && p.amount === r.amount);
    },
  },
});
