/**
 * Receipt expiry for the generic SQLite handler under a declared `receiptExpiry` (ms): a receipt
 * is gone once more than its lifetime has passed on the harness's clock since its commit. Time
 * moves only by `clockAdvance` world events, so the handler drops lapsed receipts there, in the
 * event's own transaction: between two advances no receipt can lapse. A receipt's commit time is
 * stamped at the first advance after it (`receipt_commits`): the clock has not moved since it
 * committed, so the clock's value then is its commit time. Calls run exactly the contract's
 * statements, so scheduled mode's crash points stay where they are.
 */
import type { Connection } from '../plugin.ts';
import {
  advanceHarnessClock,
  createHarnessClock,
  HARNESS_CLOCK_MS_SQL,
} from '../sqlite/harness-clock.ts';
import { cachedStatement } from '../sqlite/statement-cache.ts';

const KEY = 'workspace_id, user_id, tool, request_id';

/** The table of receipts' commit times on the harness clock, created in `setup`. */
const COMMITS_DDL = `CREATE TABLE receipt_commits(
  workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, tool TEXT NOT NULL,
  request_id TEXT NOT NULL, committed_ms INTEGER NOT NULL,
  PRIMARY KEY(${KEY}));\n`;

/** Creates the harness clock and the commit-time table; call from `setup`. */
export function createExpiringReceipts(db: Connection): void {
  createHarnessClock(db);
  db.exec(COMMITS_DDL);
}

/**
 * The plugin's `advanceClock` for receipts that last `lifetimeMs`: stamps receipts committed
 * since the last advance, moves the clock, and deletes every receipt (and its stamp) whose
 * commit lies more than `lifetimeMs` behind the new time. One transaction, so no call sees the
 * clock moved with a lapsed receipt still there.
 */
export function expiringAdvance(lifetimeMs: number): (db: Connection, ms: number) => void {
  const lapsed = `committed_ms + ${lifetimeMs} < ${HARNESS_CLOCK_MS_SQL}`;
  return (db, ms) => {
    db.exec('BEGIN IMMEDIATE');
    try {
      cachedStatement(
        db,
        `INSERT OR IGNORE INTO receipt_commits SELECT ${KEY}, ${HARNESS_CLOCK_MS_SQL} FROM receipts`,
      ).run();
      advanceHarnessClock(db, ms);
      cachedStatement(
        db,
        `DELETE FROM receipts WHERE (${KEY}) IN (SELECT ${KEY} FROM receipt_commits WHERE ${lapsed})`,
      ).run();
      cachedStatement(db, `DELETE FROM receipt_commits WHERE ${lapsed}`).run();
      db.exec('COMMIT');
    } catch (thrown) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw thrown;
    }
  };
}
