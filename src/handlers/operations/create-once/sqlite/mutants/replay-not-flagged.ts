/**
 * Mutant (create-once): a replay returns the stored invoice marked as fresh, so the client cannot
 * tell that no new invoice was created and may, say, send the customer a second notice.
 * Real-world class: idempotency metadata dropped on the way out (no `Idempotent-Replayed` flag).
 * Killed by: sequential mode (call, retry: `replayed: false`).
 */
import { replayUnflagged } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { createOnceParts, createOnceSteps } from '../create-once-steps.ts';

export default defineOperationMutant(createOnceParts, {
  name: 'create-once-replay-not-flagged',
  description:
    'Returns a replayed invoice as fresh (replayed: false), so a retry looks like a new create.',
  ...replayUnflagged(createOnceSteps),
});
