/**
 * Mutant (adjust-balance): reads the balance in autocommit mode, before `BEGIN IMMEDIATE`, then
 * inside the transaction checks the precondition on that read and writes `balance = read +
 * delta`. One call at a time the read is current and it is the reference.
 * Interleaving that breaks it: two adjustments of one account under different keys (+100 and
 * +50 on 1000) both read 1000 before either takes the write lock; the first writes 1100 and
 * commits, the second then writes 1050 over it. Both answers are fresh, but no serial order
 * gives 1100 then 1050 (the model says 1100 then 1150, or 1050 then 1150), and the final balance
 * has lost the first credit. With debits the stale read also lets the balance go below zero.
 * Real-world class: lost update, read-modify-write with the read outside the write lock (an ORM
 * loading the entity, then saving it).
 * Killed by: scheduled mode (a concurrent pair on one account, both reads before either write).
 */

import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { runOperationSteps } from '../../../../sqlite/operation-steps.ts';
import { cachedStatement } from '../../../../sqlite/statement-cache.ts';
import { inImmediateTransaction } from '../../../../sqlite/transaction.ts';
import { adjustBalanceParts, insufficient } from '../adjust-balance-steps.ts';

export default defineOperationMutant(adjustBalanceParts, {
  name: 'adjust-balance-lost-update',
  description:
    'Reads the balance before BEGIN IMMEDIATE and writes read + delta, so two racing adjustments lose one.',
  call(db, caller, r, steps) {
    // The bug: the read that the write depends on happens outside the write lock.
    const read = cachedStatement(db, 'SELECT balance FROM accounts WHERE id = ?').get(
      r.accountId,
    ) as { balance: number } | undefined;
    const balance = read?.balance ?? 0;
    return inImmediateTransaction(db, () =>
      runOperationSteps(db, caller, r, {
        ...steps,
        checkPrecondition: () => insufficient(balance, r.delta),
        applyEffect(_db, _caller, call) {
          const row = cachedStatement(
            db,
            'UPDATE accounts SET balance = ? WHERE id = ? RETURNING id, balance',
          ).get(balance + call.delta, call.accountId) as { id: number; balance: number };
          return { accountId: row.id, balance: row.balance };
        },
      }),
    );
  },
});
