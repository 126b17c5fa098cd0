/**
 * Mutant (adjust-balance): compares only the delta with the stored payload, so a key reused for
 * another account with the same delta replays the first account's result: the client believes
 * the second account was adjusted.
 * Real-world class: a partial fingerprint (the body hashed, the account id in the URL path
 * forgotten).
 * Killed by: sequential mode (r1 +100 on account 1, then r1 +100 on account 2).
 */
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { replayOrReuse, storedPayload } from '../../../../sqlite/operation-steps.ts';
import { adjustBalanceParts } from '../adjust-balance-steps.ts';

export default defineOperationMutant(adjustBalanceParts, {
  name: 'adjust-balance-fingerprint-without-account',
  description:
    'Compares only the delta with the stored payload, so a key reused for another account replays.',
  steps: {
    // The bug: the account is not part of the comparison.
    answerReceipt: (_db, stored, r) =>
      replayOrReuse(stored, storedPayload(stored).delta === r.delta),
  },
});
