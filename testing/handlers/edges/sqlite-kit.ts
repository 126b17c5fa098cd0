/**
 * What the user-written handlers of this folder share, as a user would write it once for their
 * own tools: the receipts table with a switch that makes its inserts fail, reading receipts back
 * for a snapshot, the request id rule, and running a body in one `BEGIN IMMEDIATE` transaction.
 * Imports only the public entry, as a user's code does.
 */
import type { Connection, Outcome, Receipt } from '../../../src/index.ts';
import { outcome } from '../../../src/index.ts';

/** The receipts table and its failure switch: a row in `store_down` makes every insert abort. */
export const RECEIPTS_SQL = `
  CREATE TABLE store_down (down INTEGER PRIMARY KEY);
  CREATE TABLE receipts (
    workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, tool TEXT NOT NULL,
    request_id TEXT NOT NULL, payload TEXT NOT NULL, response TEXT NOT NULL,
    PRIMARY KEY (workspace_id, user_id, tool, request_id));
  CREATE TRIGGER receipts_down BEFORE INSERT ON receipts WHEN EXISTS (SELECT 1 FROM store_down)
  BEGIN SELECT RAISE(ABORT, 'receipt store unavailable'); END;`;

/** The world functions every handler here has the same way. */
export const receiptStore = {
  failReceipts: (db: Connection) => void db.exec('INSERT OR IGNORE INTO store_down VALUES (1)'),
  restoreReceipts: (db: Connection) => void db.exec('DELETE FROM store_down'),
};

type ReceiptRow = Record<
  'workspace_id' | 'user_id' | 'tool' | 'request_id' | 'payload' | 'response',
  string
>;

/** Every stored receipt, in the model's shape. */
export function readReceipts(db: Connection): Receipt[] {
  return (db.prepare('SELECT * FROM receipts').all() as ReceiptRow[]).map((r) => ({
    workspace: r.workspace_id,
    user: r.user_id,
    tool: r.tool,
    requestId: r.request_id,
    payload: JSON.parse(r.payload),
    result: JSON.parse(r.response),
  }));
}

/** Whether `requestId` is a well-formed request id (1–64 letters, digits, `_` or `-`). */
export function isRequestId(requestId: unknown): requestId is string {
  return typeof requestId === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(requestId);
}

/** A positive safe integer, the rule for ids. */
export function isId(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}

/** The stored receipt under `key`, if any. */
export function storedReceipt(
  db: Connection,
  key: readonly string[],
): { payload: string; response: string } | undefined {
  return db
    .prepare(
      'SELECT payload, response FROM receipts WHERE (workspace_id, user_id, tool, request_id) = (?, ?, ?, ?)',
    )
    .get(...key) as { payload: string; response: string } | undefined;
}

/** Stores the receipt under `key`. */
export function storeReceipt(
  db: Connection,
  key: readonly string[],
  payload: string,
  result: object,
): void {
  db.prepare('INSERT INTO receipts VALUES (?, ?, ?, ?, ?, ?)').run(
    ...key,
    payload,
    JSON.stringify(result),
  );
}

/**
 * Runs `body` in one `BEGIN IMMEDIATE` transaction, committed when it returns a fresh answer and
 * rolled back otherwise; a failing write (the receipt store down) is an `error` answer.
 * `afterCommit` may replace a fresh answer once the transaction has committed.
 */
export function inTransaction(
  db: Connection,
  body: () => Outcome,
  afterCommit?: (committed: Outcome) => Outcome,
): Outcome {
  db.exec('BEGIN IMMEDIATE');
  let answer: Outcome;
  try {
    answer = body();
    if (answer.kind === 'ok' && !answer.replayed) db.exec('COMMIT');
  } catch (e) {
    if (String((e as { code?: unknown } | null)?.code).startsWith('SQLITE_CONSTRAINT'))
      return outcome.error(String(e));
    throw e;
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
  }
  return afterCommit && answer.kind === 'ok' && !answer.replayed ? afterCommit(answer) : answer;
}
