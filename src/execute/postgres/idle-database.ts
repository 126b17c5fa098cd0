/**
 * Keeps the last closed runner's databases (its template and run database) for the next runner
 * of the same plugin and fixture, as `../sqlite/concurrent/warm-pool.ts` keeps a worker pool.
 *
 * Making them costs far more than a short check runs: two `CREATE DATABASE` and the plugin's
 * `setup`, about 0.5 s on the 2-core development machine, paid by every check (the bench runs one
 * per mode per round, `mutants` several per mutant). A runner that closes hands them here, with
 * no connection open; a runner of the same plugin object with an equal fixture on the embedded
 * server takes them, and resets the run database before its first run as before any other
 * (`run-database.ts`: rows, sequences, and the template again if the schema changed). Only one is
 * kept, only on the embedded server (a user's server, `--database-url`, never keeps databases of
 * ours after a runner closes), and it is dropped after `IDLE_LIMIT_MS`, when another is handed
 * back, on SIGINT/SIGTERM, or by `dropIdleDatabase`. Its timer is unref'd: an idle one never
 * keeps the process alive, and the embedded server goes with the process.
 */
import type { PostgresHandlerPlugin } from '../../handlers/postgres/plugin.ts';
import type { Fixture } from '../../model/world.ts';
import { onInterrupt } from '../runtime/interrupt.ts';
import type { RunDatabase } from './run-database.ts';
import type { PostgresServer } from './server.ts';

/** How long closed runners' databases are kept for the next runner, in ms. */
export const IDLE_LIMIT_MS = 10_000;

/** What a closed runner hands back: its server (still acquired) and the databases it made. */
export interface IdleDatabase {
  readonly server: PostgresServer;
  readonly database: RunDatabase;
  /** Every database the runner made, to drop in the end. */
  readonly made: ReadonlySet<string>;
}

interface Kept extends IdleDatabase {
  readonly plugin: PostgresHandlerPlugin;
  readonly fixture: string;
  readonly timer: NodeJS.Timeout;
  readonly untrack: () => void;
}

let kept: Kept | undefined;

/** The kept databases if they were made for `plugin` and `fixture` on `server`, else undefined. */
export function takeIdleDatabase(
  plugin: PostgresHandlerPlugin,
  fixture: Fixture,
): IdleDatabase | undefined {
  const k = kept;
  if (!k || k.plugin !== plugin || k.fixture !== JSON.stringify(fixture)) return undefined;
  kept = undefined;
  clearTimeout(k.timer);
  k.untrack();
  return k;
}

/** Keeps `idle` for the next runner of `plugin` and `fixture`; drops what was kept before. */
export function keepIdleDatabase(
  plugin: PostgresHandlerPlugin,
  fixture: Fixture,
  idle: IdleDatabase,
): void {
  void dropIdleDatabase();
  const entry: Kept = {
    ...idle,
    plugin,
    fixture: JSON.stringify(fixture),
    timer: setTimeout(() => {
      if (kept === entry) void dropIdleDatabase();
    }, IDLE_LIMIT_MS),
    untrack: onInterrupt(() => (kept === entry ? dropIdleDatabase() : undefined)),
  };
  entry.timer.unref();
  kept = entry;
}

/** Drops the kept databases, if any, and lets their server go. */
export async function dropIdleDatabase(): Promise<void> {
  const k = kept;
  kept = undefined;
  if (!k) return;
  clearTimeout(k.timer);
  k.untrack();
  try {
    await Promise.all([...k.made].map((name) => k.server.dropDatabase(name).catch(() => {})));
  } finally {
    await k.server.release();
  }
}
