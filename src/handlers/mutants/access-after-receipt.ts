/**
 * Mutant: the receipt lookup runs before the current-access check, so a retry of a call whose
 * automation has since moved to another workspace, or been deleted, still replays.
 * Real-world class: an idempotency cache short-circuiting ahead of authorisation (middleware
 * mounted before the access checks of the route it wraps).
 */
import { defineHandler } from '../plugin.ts';
import { inImmediateTransaction, precheck } from '../reference.ts';
import { referenceSteps, runSteps } from '../reference-steps.ts';
import { sqliteWorld } from '../sqlite-world.ts';

/** The reference, except that a stored receipt answers before access is checked. */
export default defineHandler({
  name: 'access-after-receipt',
  description:
    'Looks the receipt up before checking current access, so a moved or deleted automation still replays.',
  ...sqliteWorld,
  replayable: true,
  call(db, principal, request) {
    const r = precheck(principal, request);
    if ('kind' in r) return r;
    return inImmediateTransaction(db, () => {
      const stored = referenceSteps.findReceipt(db, principal, r);
      if (stored) return referenceSteps.answerReceipt(db, stored, r);
      return runSteps(db, principal, r, referenceSteps);
    });
  },
});
