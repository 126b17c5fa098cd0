/**
 * Prepared statements cached per connection, for the bundled SQLite handlers. Preparing compiles
 * SQL, which cost a fifth of sequential mode's CPU when the handlers prepared on every call; a
 * statement is reusable for the life of its connection (SQLite re-prepares it by itself after a
 * schema change). Keyed weakly, so a closed connection's
 * statements go with it.
 */
import type Database from 'better-sqlite3';
import type { Connection } from '../plugin.ts';

type Cache = WeakMap<Connection, Map<string, Database.Statement>>;

/**
 * Read on a connection object that stands for another (the harness gives a plugin not declared
 * replayable a new object per run over a kept connection): the connection it stands for, whose
 * statements it shares. A statement holds no state from one run to the next, so sharing it keeps
 * the runs apart as the new object does, without compiling the handler's SQL again every run.
 */
export const STANDS_FOR: unique symbol = Symbol('receiptcheck.standsFor');

const caches: Cache = new WeakMap();
/** Raw-mode statements, kept apart from `caches` so that neither sees the other's mode. */
const rawCaches: Cache = new WeakMap();

/**
 * The statement for `sql` on `db`, prepared on first use. Callers must not change its mode
 * (`pluck`, `raw`, `expand`): the next caller would get the changed statement.
 */
export function cachedStatement(db: Connection, sql: string): Database.Statement {
  return cachedIn(caches, db, sql, false);
}

/**
 * As `cachedStatement`, in raw mode (each row an array of its columns): for a hot read that
 * builds its own objects anyway, such as a snapshot, where a row object per row was garbage.
 */
export function cachedRawStatement(db: Connection, sql: string): Database.Statement {
  return cachedIn(rawCaches, db, sql, true);
}

function cachedIn(store: Cache, db: Connection, sql: string, raw: boolean): Database.Statement {
  const key = (db as Connection & { [STANDS_FOR]?: Connection })[STANDS_FOR] ?? db;
  let cache = store.get(key);
  if (!cache) {
    cache = new Map();
    store.set(key, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = raw ? db.prepare(sql).raw(true) : db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}
