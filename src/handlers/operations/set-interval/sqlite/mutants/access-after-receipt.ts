/**
 * Mutant: the receipt lookup runs before the current-access check, so a retry of a call whose
 * automation has since moved to another workspace, or been deleted, still replays.
 * Real-world class: an idempotency cache short-circuiting ahead of authorisation (middleware
 * mounted before the access checks of the route it wraps).
 */
import { referenceSteps } from '../set-interval-steps.ts';
import { defineStepMutant } from './define-step-mutant.ts';

/** The reference, except that a stored receipt answers before access is checked. */
export default defineStepMutant({
  name: 'access-after-receipt',
  description:
    'Looks the receipt up before checking current access, so a moved or deleted automation still replays.',
  first(db, principal, r) {
    const stored = referenceSteps.findReceipt(db, principal, r);
    return stored ? referenceSteps.answerReceipt(db, stored, r) : undefined;
  },
});
