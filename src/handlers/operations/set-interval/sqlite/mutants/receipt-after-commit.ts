/**
 * Mutant: the row change commits in one transaction and the receipt is inserted afterwards, in
 * a statement of its own. When the receipt store fails, the caller gets an error but the row
 * change stays, without a receipt; a retry then writes again or conflicts. Real-world class:
 * dual write, the idempotency record kept outside the business transaction (middleware writing
 * it after the handler returns, or a separate store such as Redis).
 */
import { outcome } from '../../../../../model/outcome.ts';
import type { CallResult } from '../../../../../model/world.ts';
import { defineHandler } from '../../../../plugin.ts';
import { inImmediateTransaction, isWriteFailure } from '../../../../sqlite/transaction.ts';
import { precheck } from '../set-interval-reference.ts';
import { referenceSteps, runSteps } from '../set-interval-steps.ts';
import { sqliteWorld } from '../set-interval-world.ts';

const withoutReceipt = { ...referenceSteps, insertReceipt() {} };

/** The reference, except that the receipt insert runs after the commit. */
export default defineHandler({
  name: 'receipt-after-commit',
  description:
    'Inserts the receipt in its own statement after the row change has committed, so a failing store leaves a change without a receipt.',
  ...sqliteWorld,
  replayable: true,
  call(db, principal, request) {
    const r = precheck(principal, request);
    if ('kind' in r) return r;
    const answer = inImmediateTransaction(db, () => runSteps(db, principal, r, withoutReceipt));
    if (answer.kind !== 'ok' || answer.replayed) return answer;
    try {
      referenceSteps.insertReceipt(db, principal, r, answer.result as CallResult);
    } catch (thrown) {
      if (isWriteFailure(thrown)) return outcome.error((thrown as Error).message);
      throw thrown;
    }
    return answer;
  },
});
