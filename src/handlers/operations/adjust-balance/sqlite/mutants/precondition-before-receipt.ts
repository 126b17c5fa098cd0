/**
 * Mutant (adjust-balance): checks the balance before the receipt lookup. A debit of 700 from
 * 1000 commits but its response is lost; the retry finds 300 left, fails the check and is
 * refused `insufficient`, so the client believes the debit never happened (and may take the
 * money another way) although it did.
 * Real-world class: a business precondition bolted on ahead of idempotency (the balance check as
 * the route's first line, the idempotency layer inside).
 * Killed by: sequential mode (debit 700, retry: `insufficient`, not a replay).
 */
import { outcome } from '../../../../../model/outcome.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { runOperationSteps } from '../../../../sqlite/operation-steps.ts';
import { adjustBalanceParts } from '../adjust-balance-steps.ts';

export default defineOperationMutant(adjustBalanceParts, {
  name: 'adjust-balance-precondition-before-receipt',
  description:
    'Checks the balance before the receipt lookup, so a retry of a debit that emptied the account is refused insufficient.',
  body(db, caller, r, steps) {
    if (!steps.canAccess(db, caller, r)) return outcome.refused('unavailable');
    // The bug: the precondition ahead of the receipt.
    const refusal = steps.checkPrecondition(db, caller, r);
    if (refusal) return outcome.refused(refusal);
    return runOperationSteps(db, caller, r, steps);
  },
});
