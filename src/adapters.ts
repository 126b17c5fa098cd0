/**
 * receiptcheck's adapter kit entry, `receiptcheck/adapters`: the building blocks for a plugin
 * that wraps a real idempotency library (prechecks, the business write and its refusal, the
 * library's world, the HTTP driver). Apart from the main barrel (`src/index.ts`) because it loads
 * the HTTP injector and because most users check their own handler and never need it; see the
 * docs/libraries.md, "Writing an adapter for a real library".
 */

export type {
  AdjustRequest,
  AfterResponseWork,
  HttpDriverOptions,
  HttpReply,
  HttpRequest,
  InvoiceRequest,
  LibraryStore,
  ReplyMapping,
  StatusMapping,
  ValidRequest,
} from './handlers/libraries/adapter-kit.ts';
export {
  adjustBalanceWrite,
  automations,
  createOnceWrite,
  DEFAULT_STATUSES,
  failWrites,
  isReceiptDocument,
  isWriteFailure,
  libraryWorld,
  operationPrecheck,
  outcomeOfReply,
  PendingWork,
  precheck,
  Refusal,
  restoreWrites,
  sendHttp,
  setIntervalWrite,
} from './handlers/libraries/adapter-kit.ts';
export {
  advanceHarnessClock,
  createHarnessClock,
  HARNESS_CLOCK_MS_SQL,
  harnessClockOffset,
  harnessNow,
} from './handlers/sqlite/harness-clock.ts';
