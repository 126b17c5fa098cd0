/**
 * Mutant (adjust-balance): compares the delta's magnitude only with the stored payload, so a key
 * reused to reverse an adjustment (+100 then -100) replays the credit instead of `keyReuse`, and
 * the client believes its debit was applied.
 * Real-world class: a partial fingerprint (amount and direction sent apart, e.g. `amount` and
 * `type: debit|credit`, and only the amount hashed).
 * Killed by: sequential mode (r1 +100, then r1 -100).
 */
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { replayOrReuse, storedPayload } from '../../../../sqlite/operation-steps.ts';
import { adjustBalanceParts } from '../adjust-balance-steps.ts';

export default defineOperationMutant(adjustBalanceParts, {
  name: 'adjust-balance-fingerprint-without-sign',
  description:
    "Compares the delta's magnitude, not its sign, with the stored payload, so a key reused to reverse an adjustment replays.",
  steps: {
    answerReceipt(_db, stored, r) {
      const { account, delta } = storedPayload(stored);
      // The bug: the sign of the delta is dropped from the comparison.
      const same = account === r.accountId && Math.abs(delta as number) === Math.abs(r.delta);
      return replayOrReuse(stored, same);
    },
  },
});
