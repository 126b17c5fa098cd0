/**
 * What the scheduler needs to know about a statement from its text alone: whether it controls a
 * transaction, whether it ends one by rolling back, whether it writes (a fault target), and
 * whether a `PRAGMA` reads or sets the busy timeout (kept virtual, see `scheduled-connection.ts`).
 * Pure.
 */

const CONTROL = /^\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b/i;
const ROLLBACK = /^\s*ROLLBACK\s*(TRANSACTION\s*)?(;|$)/i;
const WRITE = /^\s*(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER)\b/i;
const WITH_WRITE = /^\s*WITH\b[\s\S]*\b(INSERT|UPDATE|DELETE|REPLACE)\b/i;
const LOCKING_BEGIN = /^\s*BEGIN\s+(IMMEDIATE|EXCLUSIVE)(\s+TRANSACTION)?\s*;?\s*$/i;
const BUSY_TIMEOUT = /^\s*busy_timeout\s*(?:=\s*(\d+)\s*)?;?\s*$/i;

/** BEGIN, COMMIT/END, ROLLBACK, SAVEPOINT or RELEASE. */
export function isTransactionControl(sql: string): boolean {
  return CONTROL.test(sql);
}

/** A plain `ROLLBACK` (not `ROLLBACK TO` a savepoint): the transaction ends without committing. */
export function isRollback(sql: string): boolean {
  return ROLLBACK.test(sql);
}

/**
 * A `BEGIN IMMEDIATE` or `BEGIN EXCLUSIVE` alone: it takes the write lock at once, so another
 * lane's transaction blocks it, and failing it changes nothing.
 */
export function isLockingBegin(sql: string): boolean {
  return LOCKING_BEGIN.test(sql);
}

/**
 * Whether SQL text passed to `exec` writes (data or schema). Prepared statements use SQLite's own
 * `readonly` flag instead; this is for `exec`, which has none.
 */
export function isWriteText(sql: string): boolean {
  return WRITE.test(sql) || WITH_WRITE.test(sql);
}

/**
 * For a `pragma()` source: undefined when it is not about the busy timeout; `{set: n}` for
 * `busy_timeout = n`; `{}` for a read.
 */
export function busyTimeoutPragma(source: string): { set?: number } | undefined {
  const m = BUSY_TIMEOUT.exec(source);
  if (!m) return undefined;
  return m[1] === undefined ? {} : { set: Number(m[1]) };
}
