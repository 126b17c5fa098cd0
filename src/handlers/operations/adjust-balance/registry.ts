/** The bundled `adjust-balance` handlers: the reference and every catalogued mutant. */
import { operationRegistry } from '../operation-registry.ts';
import accessAfterReceipt from './mutants/access-after-receipt.ts';
import deferredTransaction from './mutants/deferred-transaction.ts';
import effectBeforeReceipt from './mutants/effect-before-receipt.ts';
import fingerprintWithoutAccount from './mutants/fingerprint-without-account.ts';
import fingerprintWithoutSign from './mutants/fingerprint-without-sign.ts';
import keyWithoutUser from './mutants/key-without-user.ts';
import lostUpdate from './mutants/lost-update.ts';
import preconditionBeforeReceipt from './mutants/precondition-before-receipt.ts';
import receiptAfterCommit from './mutants/receipt-after-commit.ts';
import receiptErrorSwallowed from './mutants/receipt-error-swallowed.ts';
import replayFromCurrentBalance from './mutants/replay-from-current-balance.ts';
import reference from './reference.ts';

/** By name (`handlers`) and as `BUNDLED_HANDLERS` rows (`bundled`). */
export const ADJUST_BALANCE_REGISTRY = operationRegistry('adjust-balance', reference, [
  effectBeforeReceipt,
  preconditionBeforeReceipt,
  replayFromCurrentBalance,
  fingerprintWithoutSign,
  fingerprintWithoutAccount,
  receiptAfterCommit,
  receiptErrorSwallowed,
  accessAfterReceipt,
  keyWithoutUser,
  lostUpdate,
  deferredTransaction,
]);
