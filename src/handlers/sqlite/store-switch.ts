/**
 * The receipt-store failure of the bundled SQLite handlers, as a switch that lives in the
 * database: triggers on the store's table abort its writes with `STORE_FAILURE` while a one-row
 * flag table holds its row. The triggers are part of the template schema (`flagDdl` and `triggerDdl` in setup),
 * so failing and restoring the store is a row write, not a schema change: a schema change makes
 * every other connection on the database (lanes, workers, the resetter) reload the schema and
 * re-prepare its statements, which doubled the CPU of a run that failed the store. The per-run
 * reset restores the template's rows, so every run starts with the store up.
 *
 * A database set up without the switch (a user's own setup calling `failWrites`), or whose
 * guarded table was made again after it, gets it on its first failure: one schema change, as
 * before.
 */
import type { Connection } from '../plugin.ts';
import { cachedStatement } from './statement-cache.ts';

/** The message a failing store's writes raise (the model's `STORE_FAILURE_MESSAGE`). */
export const STORE_FAILURE = 'receipt store unavailable';

/** A kind of write the switch can make fail. */
export type GuardedWrite = 'INSERT' | 'UPDATE' | 'DELETE';

/** The flag table for `table`: a row in it means `table`'s store is down. */
function flagTable(table: string): string {
  return `receiptcheck_${table}_down`;
}

/**
 * The flag table of `table`'s switch, empty (store up). Create it before `table`: a reset to the
 * template rewrites tables in schema order, so the flag's row goes first and the reset's own
 * writes to `table` find the store up.
 */
export function flagDdl(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${flagTable(table)}(down INTEGER PRIMARY KEY CHECK (down = 1));`;
}

/** The triggers of `table`'s switch, one per kind of write; after `table` and `flagDdl`. */
export function triggerDdl(table: string, writes: readonly GuardedWrite[]): string {
  const flag = flagTable(table);
  return writes
    .map(
      (op) =>
        `CREATE TRIGGER IF NOT EXISTS ${triggerName(table, op)} BEFORE ${op} ON ${table}
         WHEN EXISTS (SELECT 1 FROM ${flag})
         BEGIN SELECT RAISE(ABORT, '${STORE_FAILURE}'); END;`,
    )
    .join('\n');
}

/**
 * Makes every guarded write to `table` fail, until `storeUp`. Two statements (the flag's row, and
 * a count of the switch's triggers); idempotent. The triggers are counted because a setup that
 * drops and makes `table` again after the switch (a plugin altering the bundled schema) drops
 * them with it: the flag alone would then fail nothing, and the store failure would go unseen.
 */
export function storeDown(db: Connection, table: string, writes: readonly GuardedWrite[]): void {
  const sql = `INSERT OR IGNORE INTO ${flagTable(table)} VALUES (1)`;
  try {
    cachedStatement(db, sql).run();
  } catch (thrown) {
    if (!missingTable(thrown)) throw thrown;
    db.exec(flagDdl(table));
    cachedStatement(db, sql).run();
  }
  const names = writes.map((op) => triggerName(table, op));
  const counted = cachedStatement(db, COUNT_TRIGGERS).get(table, JSON.stringify(names)) as {
    n: number;
  };
  if (counted.n !== names.length) db.exec(triggerDdl(table, writes));
}

/** How many of the triggers named in a JSON array (the second parameter) exist on a table (the first). */
const COUNT_TRIGGERS = `SELECT count(*) AS n FROM main.sqlite_master
  WHERE type = 'trigger' AND tbl_name = ? AND name IN (SELECT value FROM json_each(?))`;

function triggerName(table: string, op: GuardedWrite): string {
  return `${flagTable(table)}_${op.toLowerCase()}`;
}

/** Lets writes to `table` succeed again. One statement; idempotent, and a no-op without a switch. */
export function storeUp(db: Connection, table: string): void {
  try {
    cachedStatement(db, `DELETE FROM ${flagTable(table)}`).run();
  } catch (thrown) {
    if (!missingTable(thrown)) throw thrown;
  }
}

/** SQLite's error for a statement naming a table the database lacks. */
function missingTable(thrown: unknown): boolean {
  return thrown instanceof Error && thrown.message.startsWith('no such table');
}
