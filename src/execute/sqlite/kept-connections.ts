/**
 * The racing modes keep their connections to the shared database from run to run (scheduled
 * mode's coordinator and lanes, concurrent mode's workers: opening one and loading the schema
 * again cost a good part of a run), so each run must meet them as newly opened ones: a replay
 * starts from new connections, and what plugin code left on one (a temporary table, a connection
 * flag such as `recursive_triggers`, an attached database, a busy timeout) would otherwise reach
 * the next run, and a failure it caused would not replay. A connection opened here records its
 * settings (`KEPT_STATE_SQL`) and has its SQL watched (`settings-watch.ts`): `stillAsOpened`
 * reads them again only for a connection whose SQL could have changed one, so a handler that
 * never names a pragma, an attachment or a temporary object costs nothing here; one that differs
 * is closed and replaced by its owner.
 */
import type Database from 'better-sqlite3';
import type { Connection } from '../../handlers/plugin.ts';
import { CONNECTION_STATE_SQL } from './memory-template.ts';
import { type SettingsWatch, watchSettings } from './settings-watch.ts';

/** A kept connection's watch, its settings' statements, and what they read when it was opened. */
interface Kept {
  readonly watch: SettingsWatch;
  readonly reads: readonly Database.Statement[];
  readonly opened: readonly unknown[];
}

const kept = new WeakMap<Connection, Kept>();

/**
 * `CONNECTION_STATE_SQL` and the busy timeout, which changes how long a statement of a
 * concurrent run's connection waits for another's lock (scheduled mode keeps its own in the
 * harness, and the real one stays 0).
 */
const KEPT_STATE_SQL = [...CONNECTION_STATE_SQL, 'PRAGMA busy_timeout'];

/** Records `db`'s settings as it has them now (just opened), and watches its SQL from now on. */
export function keepAsOpened(db: Connection): void {
  const reads = KEPT_STATE_SQL.map((sql) => db.prepare(sql).pluck());
  kept.set(db, { watch: watchSettings(db), reads, opened: reads.map((r) => r.get()) });
}

/**
 * Whether `db` still has the settings it was opened with (true for a connection `keepAsOpened`
 * never saw): at once when its SQL named none of them, else by reading them.
 */
export function stillAsOpened(db: Connection): boolean {
  const k = kept.get(db);
  if (!k?.watch.touched) return true;
  return k.watch.unwatched(() => k.reads.every((r, i) => r.get() === k.opened[i]));
}
