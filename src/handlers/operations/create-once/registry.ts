/** The bundled `create-once` handlers: the reference and every catalogued mutant. */
import { operationRegistry } from '../operation-registry.ts';
import accessAfterReceipt from './mutants/access-after-receipt.ts';
import checkThenAct from './mutants/check-then-act.ts';
import dedupeByContent from './mutants/dedupe-by-content.ts';
import fingerprintWithoutAmount from './mutants/fingerprint-without-amount.ts';
import keyWithoutUser from './mutants/key-without-user.ts';
import keyWithoutWorkspace from './mutants/key-without-workspace.ts';
import receiptAfterCommit from './mutants/receipt-after-commit.ts';
import receiptAfterInsert from './mutants/receipt-after-insert.ts';
import receiptErrorSwallowed from './mutants/receipt-error-swallowed.ts';
import replayLatestInvoice from './mutants/replay-latest-invoice.ts';
import replayNotFlagged from './mutants/replay-not-flagged.ts';
import reference from './reference.ts';

/** By name (`handlers`) and as `BUNDLED_HANDLERS` rows (`bundled`). */
export const CREATE_ONCE_REGISTRY = operationRegistry('create-once', reference, [
  receiptAfterInsert,
  keyWithoutUser,
  keyWithoutWorkspace,
  receiptAfterCommit,
  receiptErrorSwallowed,
  accessAfterReceipt,
  replayNotFlagged,
  replayLatestInvoice,
  fingerprintWithoutAmount,
  dedupeByContent,
  checkThenAct,
]);
