/** The bundled `transfer` handlers on SQLite: the reference and every catalogued mutant. */
import { operationRegistry } from '../../operation-registry.ts';
import accessAfterReceipt from './mutants/access-after-receipt.ts';
import creditReplayed from './mutants/credit-replayed.ts';
import fingerprintWithoutPayee from './mutants/fingerprint-without-payee.ts';
import keyWithoutUser from './mutants/key-without-user.ts';
import legsInTwoTransactions from './mutants/legs-in-two-transactions.ts';
import lockOrder from './mutants/lock-order.ts';
import payeeUnchecked from './mutants/payee-unchecked.ts';
import receiptErrorSwallowed from './mutants/receipt-error-swallowed.ts';
import reference from './reference.ts';

/** By name (`handlers`) and as `BUNDLED_HANDLERS` rows (`bundled`). */
export const TRANSFER_REGISTRY = operationRegistry('transfer', reference, [
  creditReplayed,
  legsInTwoTransactions,
  payeeUnchecked,
  fingerprintWithoutPayee,
  accessAfterReceipt,
  keyWithoutUser,
  receiptErrorSwallowed,
  lockOrder,
]);
