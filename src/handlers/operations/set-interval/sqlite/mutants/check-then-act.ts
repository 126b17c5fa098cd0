/**
 * Mutant: checks access and looks the receipt up before taking the write lock, then writes in a
 * `BEGIN IMMEDIATE` transaction that no longer re-reads the receipt. One call at a time, it
 * behaves exactly like the reference. Two first attempts under one key both miss the receipt
 * (check), then both try to write (act): the second finds the version already advanced and
 * answers `conflict` where the contract demands a replay (identical duplicates) or `keyReuse`
 * (mismatched ones). Real-world class: the idempotency lookup done by middleware or an ORM read
 * outside the transaction that performs the write. Only concurrent mode can catch it.
 */
import { outcome } from '../../../../../model/outcome.ts';
import { defineHandler } from '../../../../plugin.ts';
import { inImmediateTransaction } from '../../../../sqlite/transaction.ts';
import { precheck } from '../set-interval-reference.ts';
import { referenceSteps as steps } from '../set-interval-steps.ts';
import { sqliteWorld } from '../set-interval-world.ts';

export default defineHandler({
  name: 'check-then-act',
  description:
    'Reads access and the receipt before BEGIN IMMEDIATE, so two racing first attempts both miss the receipt.',
  ...sqliteWorld,
  replayable: true,
  call(db, principal, request) {
    const r = precheck(principal, request);
    if ('kind' in r) return r;
    // The bug: these reads run in autocommit mode, outside the transaction that writes.
    if (!steps.canAccess(db, principal, r)) return outcome.refused('unavailable');
    const stored = steps.findReceipt(db, principal, r);
    if (stored) return steps.answerReceipt(db, stored, r);
    return inImmediateTransaction(db, () => {
      const result = steps.updateRow(db, principal, r);
      if (!result) return outcome.refused('conflict');
      steps.insertReceipt(db, principal, r, result);
      return outcome.fresh(result);
    });
  },
});
