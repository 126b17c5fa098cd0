/**
 * The harness's clock for plugins whose library reads the time: how far `clockAdvance` world
 * events have moved it, kept in a one-row table of the run's database. A plugin's
 * `advanceClock(db, ms)` adds to it; its library's time is `Date.now()` plus that offset
 * (`harnessNow`), or, wall-clock free, the offset alone (`HARNESS_CLOCK_MS_SQL`: the powertools
 * and node-idempotency adapters keep their records' times on it). Being in
 * the database, the clock is the same on every connection, worker thread and scheduled replay,
 * and each run starts again from the template at offset 0.
 */
import type { Connection } from '../plugin.ts';
import { cachedStatement } from './statement-cache.ts';

/** The table the clock lives in. */
export const HARNESS_CLOCK_TABLE = 'receiptcheck_clock';

/**
 * The clock's offset in ms as an SQL expression, for folding the read into a statement a plugin
 * runs anyway: in scheduled mode every statement is a yield point, so a separate read of the
 * clock would shift every later statement's index (and a saved schedule's crash with it).
 */
export const HARNESS_CLOCK_MS_SQL = `(SELECT advanced_ms FROM ${HARNESS_CLOCK_TABLE} WHERE id = 1)`;

/** Creates the clock at offset 0; call it from `setup`. */
export function createHarnessClock(db: Connection): void {
  db.exec(
    `CREATE TABLE ${HARNESS_CLOCK_TABLE}(id INTEGER PRIMARY KEY CHECK (id = 1), advanced_ms INTEGER NOT NULL);
     INSERT INTO ${HARNESS_CLOCK_TABLE} VALUES (1, 0)`,
  );
}

/** Moves the clock on by `ms`: what a plugin's `advanceClock` does. */
export function advanceHarnessClock(db: Connection, ms: number): void {
  cachedStatement(
    db,
    `UPDATE ${HARNESS_CLOCK_TABLE} SET advanced_ms = advanced_ms + ? WHERE id = 1`,
  ).run(ms);
}

/** How many ms the harness's clock is ahead of the wall clock. */
export function harnessClockOffset(db: Connection): number {
  const row = cachedStatement(
    db,
    `SELECT advanced_ms AS ms FROM ${HARNESS_CLOCK_TABLE} WHERE id = 1`,
  ).get() as { ms: number } | undefined;
  return row?.ms ?? 0;
}

/** The harness's time: the wall clock plus how far clock advances have moved it, in epoch ms. */
export function harnessNow(db: Connection): number {
  return Date.now() + harnessClockOffset(db);
}
