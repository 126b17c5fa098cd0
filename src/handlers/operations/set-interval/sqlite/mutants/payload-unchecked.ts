/**
 * Mutant: a receipt under the key is replayed whatever the call now asks for. Reusing a key with
 * a different target, version or interval gets the old result back instead of `keyReuse`, and
 * the client believes its new intent was applied. Real-world class: key-only deduplication, the
 * idempotency key trusted without a request fingerprint.
 */
import { outcome } from '../../../../../model/outcome.ts';
import { parseResult } from '../set-interval-world.ts';
import { defineStepMutant } from './define-step-mutant.ts';

/** The reference, except that the stored payload is never compared. */
export default defineStepMutant({
  name: 'payload-unchecked',
  description:
    'Replays any receipt under the key without comparing payloads, so key reuse replays.',
  steps: {
    answerReceipt: (_db, stored) => outcome.replayed(parseResult(stored.response)),
  },
});
