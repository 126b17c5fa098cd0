/**
 * Mutant (transfer): one leg applied twice. The debit is guarded by the receipt, but a found
 * receipt re-posts the credit leg before it replays, as a payout step "made sure of" on every
 * attempt would. A retry after a lost response answers correctly (the stored balances) and still
 * credits the payee a second time: money appears from nowhere.
 * Real-world class: a side leg outside the idempotency guard (a payout, a ledger posting, a
 * webhook) re-run on every attempt, only the main write deduplicated.
 * Killed by: sequential mode (call, retry: the credited balance differs).
 */
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { answerStored } from '../../../../sqlite/operation-steps.ts';
import { postLeg, transferParts, transferPayload } from '../transfer-sql.ts';

export default defineOperationMutant(transferParts, {
  name: 'transfer-credit-replayed',
  description:
    'Posts the credit leg again whenever a receipt replays, so a retry credits the payee a second time.',
  steps: {
    answerReceipt(db, stored, r) {
      const answer = answerStored(stored, transferPayload(r));
      // The bug: the credit is re-posted "to make sure", though the receipt says it happened.
      if (answer.kind === 'ok') postLeg(db, r.toAccountId, r.amount);
      return answer;
    },
  },
});
