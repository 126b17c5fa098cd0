/**
 * The harness's clock on PostgreSQL (`../../harness-clock.ts` on SQLite): how far `clockAdvance`
 * world events have moved it, kept in a one-row table of the run's database, so it is the same on
 * every lane's connection and starts again at 0 with each run's copy of the template.
 */

import type { PgConnection } from '../../postgres/plugin.ts';
import { HARNESS_CLOCK_TABLE } from '../../sqlite/harness-clock.ts';

/** The clock's offset in ms as an SQL expression, to fold into a statement a plugin runs anyway. */
export const PG_HARNESS_CLOCK_MS_SQL = `(SELECT advanced_ms FROM ${HARNESS_CLOCK_TABLE} WHERE id = 1)`;

/** Creates the clock at offset 0; call it from `setup`. */
export async function createPgHarnessClock(db: PgConnection): Promise<void> {
  // double precision, not bigint: node-postgres returns bigint as a string.
  await db.query(
    `CREATE TABLE ${HARNESS_CLOCK_TABLE}(id INTEGER PRIMARY KEY CHECK (id = 1), advanced_ms DOUBLE PRECISION NOT NULL);
     INSERT INTO ${HARNESS_CLOCK_TABLE} VALUES (1, 0)`,
  );
}

/** Moves the clock on by `ms`: what a plugin's `advanceClock` does. */
export async function advancePgHarnessClock(db: PgConnection, ms: number): Promise<void> {
  await db.query(`UPDATE ${HARNESS_CLOCK_TABLE} SET advanced_ms = advanced_ms + $1 WHERE id = 1`, [
    ms,
  ]);
}
