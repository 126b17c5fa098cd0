/**
 * Mutant (transfer): the legs in two transactions. The first takes the write lock, checks access,
 * the receipt and the balance, and commits the debit; the second posts the credit and inserts the
 * receipt. One call at a time, with a working store, it answers what the reference answers. When
 * the second transaction fails (the receipt store failing, a fault in its statements, a crash
 * between the commits), it rolls back alone: the debit stays without its credit or its receipt,
 * and the client's retry debits again.
 * Real-world class: a multi-row write split across transactions (a service call per leg, an ORM
 * session committed between saves): the legs are not atomic.
 * Killed by: sequential mode (the store fails, a transfer: `error`, but the debited balance moved).
 */
import { outcome } from '../../../../../model/outcome.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { inImmediateTransaction } from '../../../../sqlite/transaction.ts';
import { postLeg, transferParts, transferResult } from '../transfer-sql.ts';

export default defineOperationMutant(transferParts, {
  name: 'transfer-legs-in-two-transactions',
  description:
    'Commits the debit in one transaction and the credit with the receipt in a second, so a failure of the second leaves the debit alone.',
  call(db, caller, r, steps) {
    let fromBalance: number | undefined;
    const first = inImmediateTransaction(db, () => {
      if (!steps.canAccess(db, caller, r)) return outcome.refused('unavailable');
      const stored = steps.findReceipt(db, caller, r);
      if (stored) return steps.answerReceipt(db, stored, r);
      const refusal = steps.checkPrecondition(db, caller, r);
      if (refusal) return outcome.refused(refusal);
      fromBalance = postLeg(db, r.fromAccountId, -r.amount);
      return outcome.fresh({});
    });
    if (fromBalance === undefined || first.kind !== 'ok') return first;
    const debited = fromBalance;
    // The bug: the debit has committed; the credit and the receipt commit (or fail) on their own.
    return inImmediateTransaction(db, () => {
      const result = transferResult(r, debited, postLeg(db, r.toAccountId, r.amount));
      steps.insertReceipt(db, caller, r, result);
      return outcome.fresh(result);
    });
  },
});
