/**
 * Mutant (adjust-balance): a recognised retry answers with the account's balance now instead of
 * the stored result. After another adjustment, the retry reports a balance the original call
 * never produced.
 * Real-world class: a replay rebuilt from current resource state instead of a stored response
 * (the receipt kept only as a "done" marker).
 * Killed by: sequential mode (r1 +250, r2 +100, retry r1: 1350, not 1250).
 */
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { replayOrReuse } from '../../../../sqlite/operation-steps.ts';
import { canonicalText } from '../../../../sqlite/receipt-store.ts';
import { adjustBalanceParts, adjustPayload, balanceOf } from '../adjust-balance-steps.ts';

export default defineOperationMutant(adjustBalanceParts, {
  name: 'adjust-balance-replay-from-current-balance',
  description:
    'Builds a replay from the current balance instead of the stored result, so a retry after another adjustment reports it.',
  steps: {
    answerReceipt: (db, stored, r) =>
      // The bug: the replay reads the balance now instead of the stored result.
      replayOrReuse(stored, stored.payload === canonicalText(adjustPayload(r)), () => ({
        accountId: r.accountId,
        balance: balanceOf(db, r.accountId),
      })),
  },
});
