/**
 * Mutant: the request fingerprint covers the body (expected version, interval) but not the
 * automation id, which travels in the URL path. Reusing a key for another automation with the
 * same body replays the first automation's result. Real-world class: a fingerprint built from
 * part of the request (body hashed, path parameters forgotten).
 */
import { outcome } from '../../../../../model/outcome.ts';
import type { ReceiptPayload } from '../../../../../model/world.ts';
import { parseResult } from '../set-interval-world.ts';
import { defineStepMutant } from './define-step-mutant.ts';

/** The reference, except that the payload comparison ignores the target id. */
export default defineStepMutant({
  name: 'fingerprint-without-target',
  description:
    'Compares only version and interval with the stored payload, so a key reused for another automation replays.',
  steps: {
    answerReceipt(_db, stored, r) {
      const { version, interval } = JSON.parse(stored.payload) as ReceiptPayload;
      if (version !== r.expectedVersion || interval !== r.intervalMinutes)
        return outcome.keyReuse();
      return outcome.replayed(parseResult(stored.response));
    },
  },
});
