/**
 * Mutant: the request fingerprint covers the target and interval but not the expected version,
 * which travels in an `If-Match`-style header. Reusing a key with another expected version
 * replays instead of `keyReuse`. Real-world class: a fingerprint built from part of the request
 * (body hashed, headers that carry intent forgotten).
 */
import { outcome } from '../../../../../model/outcome.ts';
import type { ReceiptPayload } from '../../../../../model/world.ts';
import { parseResult } from '../set-interval-world.ts';
import { defineStepMutant } from './define-step-mutant.ts';

/** The reference, except that the payload comparison ignores the expected version. */
export default defineStepMutant({
  name: 'fingerprint-without-version',
  description:
    'Compares only target and interval with the stored payload, so a key reused with another expected version replays.',
  steps: {
    answerReceipt(_db, stored, r) {
      const { id, interval } = JSON.parse(stored.payload) as ReceiptPayload;
      if (id !== r.automationId || interval !== r.intervalMinutes) return outcome.keyReuse();
      return outcome.replayed(parseResult(stored.response));
    },
  },
});
