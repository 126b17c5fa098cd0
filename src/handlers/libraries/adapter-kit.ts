/**
 * The adapter kit: what a plugin wrapping a real idempotency library needs besides the library,
 * and what the bundled library plugins (powertools, node-idempotency, express-idempotency) are
 * built from. Public as `receiptcheck/adapters` (`src/adapters.ts`), so an adapter written outside
 * this repository imports only the package.
 *
 * - at the request edge: `precheck` (contract rules 1–4, before any library sees the call);
 * - the business write the library wraps: `setIntervalWrite` (rules 6, 8, 9 in one immediate
 *   transaction, throwing a `Refusal`), and `isReceiptDocument` for what it returns; for the
 *   other built-in operations `createOnceWrite` and `adjustBalanceWrite` (both `operationWrite`,
 *   which stays internal with the operations' SQL) and their prechecks, `operationPrecheck`;
 * - the world: `libraryWorld` (setup, world events, the store failure and the snapshot for a
 *   library that keeps its records in its own table), with `failWrites`/`restoreWrites`;
 * - mapping failures: `isWriteFailure` (a failing store write, which becomes `error`);
 * - over HTTP: `sendHttp` (an in-process app, light-my-request), `outcomeOfReply`,
 *   `DEFAULT_STATUSES`, and `PendingWork` for the writes a library makes after it responds.
 */

export { precheck } from '../operations/set-interval/sqlite/set-interval-reference.ts';
export type { ValidRequest } from '../operations/set-interval/sqlite/set-interval-steps.ts';
export { isWriteFailure } from '../sqlite/transaction.ts';
export { isReceiptDocument, Refusal, setIntervalWrite } from './business-write.ts';
export type {
  AfterResponseWork,
  HttpDriverOptions,
  HttpReply,
  HttpRequest,
  ReplyMapping,
  StatusMapping,
} from './http-driver.ts';
export { DEFAULT_STATUSES, outcomeOfReply, PendingWork, sendHttp } from './http-driver.ts';
export type { LibraryStore } from './library-world.ts';
export { automations, failWrites, libraryWorld, restoreWrites } from './library-world.ts';
export type { AdjustRequest, InvoiceRequest } from './operation-write.ts';
export {
  adjustBalanceWrite,
  createOnceWrite,
  operationPrecheck,
} from './operation-write.ts';
