/**
 * Whether any SQL given to a connection could have changed one of the settings a kept copy's
 * reset compares with a fresh copy's (`STATE_SQL` in `memory-template.ts`): a pragma, an attached
 * database, a temporary schema object. Reading those settings cost about a twentieth of a
 * sequential step's CPU, since SQLite compiles a pragma afresh on every read; a connection whose
 * SQL never named them cannot have changed them, so its reset skips the reads.
 *
 * Every setting compared is only changed by SQL text that holds `pragma`, `attach` (or
 * `detach`) or `temp` (a `TEMP` or `TEMPORARY` object, or one in the `temp` schema), in any case,
 * so the watch looks for those words anywhere in the text, comments and strings included: it can
 * only err towards comparing. It sees what reaches the connection object's `prepare`, `exec` and
 * `pragma`; `loadExtension` (an extension's own start-up runs SQL out of sight) marks it at once.
 * A statement prepared in one sequence and run again in a later one was seen when it was
 * prepared: a connection once marked stays marked for its life. What it cannot see is SQL handed
 * to better-sqlite3's native object behind the wrapper's own symbol, which no handler reaches by
 * accident.
 */
import type { Connection } from '../../handlers/plugin.ts';

/** Words some SQL that changes a compared setting must hold. */
const MAY_CHANGE_SETTINGS = /pragma|attach|temp/i;

/** A connection's watch: set once SQL on it may have changed a compared setting. */
export interface SettingsWatch {
  /** Some SQL given to the connection since it was watched may have changed a setting. */
  readonly touched: boolean;
  /** Runs `harness` (the reset's own pragma reads) without marking the connection. */
  unwatched<T>(harness: () => T): T;
}

/** Watches `db`'s SQL from now on (its `prepare`, `exec`, `pragma` and `loadExtension`). */
export function watchSettings(db: Connection): SettingsWatch {
  let touched = false;
  let paused = false;
  const mark = (): void => {
    if (!paused) touched = true;
  };
  const see = (sql: unknown): void => {
    if (!touched && (typeof sql !== 'string' || MAY_CHANGE_SETTINGS.test(sql))) mark();
  };
  const { prepare, exec, pragma, loadExtension } = db;
  const own = db as unknown as Record<string, unknown>;
  own.prepare = function (this: Connection, sql: string) {
    see(sql);
    return prepare.call(this, sql);
  };
  own.exec = function (this: Connection, sql: string) {
    see(sql);
    return exec.call(this, sql);
  };
  own.pragma = function (this: Connection, ...args: Parameters<Connection['pragma']>) {
    mark();
    return pragma.apply(this, args);
  };
  own.loadExtension = function (
    this: Connection,
    ...args: Parameters<Connection['loadExtension']>
  ) {
    mark();
    return loadExtension.apply(this, args);
  };
  return {
    get touched() {
      return touched;
    },
    unwatched(harness) {
      const was = paused;
      paused = true;
      try {
        return harness();
      } finally {
        paused = was;
      }
    },
  };
}
