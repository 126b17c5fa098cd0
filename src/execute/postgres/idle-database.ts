/**
 * Keeps the last closed runner's databases (its template and run database) and its connections
 * to the run database for the next runner of a plugin with the same `setup` and fixture, as
 * `../sqlite/concurrent/warm-pool.ts` keeps a worker pool.
 *
 * Making them costs far more than a short check runs: two `CREATE DATABASE` and the plugin's
 * `setup`, about 0.5 s on the 2-core development machine, paid by every check (the bench runs one
 * per mode per round, `mutants` and the bench's time to kill several per mutant); and each
 * connection is a new server backend, 40 ms to open and 20 ms to end on that machine under load,
 * four or five a check. A runner that closes hands them here, every lane's face sealed; a runner
 * of a plugin with the same `setup` (`sameSetup`: the mutants built on one operation's shared
 * world share theirs) and an equal fixture on the embedded server takes them, and resets the run
 * database and cleans every connection before its first run as before any other
 * (`run-database.ts`: rows, sequences, and the template again if the schema changed;
 * `session-lane.ts`: the session's state, a lane with a query still out replaced). Only one is
 * kept, only on the embedded server (a user's server, `--database-url`, never keeps databases of
 * ours after a runner closes), and it is dropped after `IDLE_LIMIT_MS`, when another is handed
 * back, on SIGINT/SIGTERM, when a CLI command is done (`runtime/kept-for-next.ts`), or by
 * `dropIdleDatabase`. Its timer and its connections' sockets are unref'd, so they never keep the
 * process alive themselves.
 */
import type pg from 'pg';
import type { PostgresHandlerPlugin } from '../../handlers/postgres/plugin.ts';
import type { Fixture } from '../../model/world.ts';
import { onInterrupt } from '../runtime/interrupt.ts';
import { keptForNext } from '../runtime/kept-for-next.ts';
import type { RunDatabase } from './run-database.ts';
import type { PostgresServer } from './server.ts';
import type { Lane } from './session-lane.ts';

/** How long closed runners' databases are kept for the next runner, in ms. */
export const IDLE_LIMIT_MS = 10_000;

/** What a closed runner hands back: its server (still acquired) and the databases it made. */
export interface IdleDatabase {
  readonly server: PostgresServer;
  readonly database: RunDatabase;
  /** Every database the runner made, to drop in the end. */
  readonly made: ReadonlySet<string>;
  /** Its open connections to the run database, every lane's face sealed. */
  readonly connections: KeptConnections;
}

/** A closed runner's connections, as its session held them. */
export interface KeptConnections {
  readonly harness: pg.Client | undefined;
  readonly lanes: readonly (Lane | undefined)[];
  readonly watcher: pg.Client | undefined;
}

interface Kept extends IdleDatabase {
  readonly plugin: PostgresHandlerPlugin;
  readonly fixture: string;
  readonly timer: NodeJS.Timeout;
  readonly untrack: () => void;
  /** Unregisters it from what a finished command lets go (`kept-for-next.ts`). */
  readonly unkeep: () => void;
}

let kept: Kept | undefined;

/**
 * The kept databases if they were made by `plugin`'s `setup` with `fixture`, else undefined: a
 * mutant built on a reference (`{...world, call}`) takes the reference's, and another mutant's.
 */
export function takeIdleDatabase(
  plugin: PostgresHandlerPlugin,
  fixture: Fixture,
): IdleDatabase | undefined {
  const k = kept;
  if (!k || !sameSetup(k.plugin, plugin) || k.fixture !== JSON.stringify(fixture)) return undefined;
  kept = undefined;
  clearTimeout(k.timer);
  k.untrack();
  k.unkeep();
  for (const client of clientsOf(k.connections)) socketOf(client)?.ref?.();
  return k;
}

/** Keeps `idle` for the next runner of `plugin` and `fixture`; drops what was kept before. */
export function keepIdleDatabase(
  plugin: PostgresHandlerPlugin,
  fixture: Fixture,
  idle: IdleDatabase,
): void {
  void dropIdleDatabase();
  // Dropped only while it is still the one kept: another may have taken its place.
  const drop = () => (kept === entry ? dropIdleDatabase() : Promise.resolve());
  const entry: Kept = {
    ...idle,
    plugin,
    fixture: JSON.stringify(fixture),
    timer: setTimeout(() => void drop(), IDLE_LIMIT_MS),
    untrack: onInterrupt(drop),
    unkeep: keptForNext(drop),
  };
  entry.timer.unref();
  for (const client of clientsOf(idle.connections)) socketOf(client)?.unref?.();
  kept = entry;
}

/** Drops the kept databases, if any, and lets their server go. */
export async function dropIdleDatabase(): Promise<void> {
  const k = kept;
  kept = undefined;
  if (!k) return;
  clearTimeout(k.timer);
  k.untrack();
  k.unkeep();
  try {
    await Promise.all(clientsOf(k.connections).map((c) => c.end().catch(() => {})));
    await Promise.all([...k.made].map((name) => k.server.dropDatabase(name).catch(() => {})));
  } finally {
    await k.server.release();
  }
}

function clientsOf(c: KeptConnections): pg.Client[] {
  return [c.harness, ...c.lanes.map((l) => l?.client), c.watcher].filter(
    (x): x is pg.Client => x !== undefined,
  );
}

/** The socket under `client` (a `net.Socket` for a TCP connection), to ref and unref. */
function socketOf(client: pg.Client): { ref?(): void; unref?(): void } | undefined {
  return (client as unknown as { connection?: { stream?: { ref?(): void; unref?(): void } } })
    .connection?.stream;
}

/**
 * Whether `a`'s and `b`'s `setup` make the same database from one fixture: the same plugin, or
 * the same function that never reads `this` (the plugin it is called on), as the plugins built
 * from one operation's shared world have.
 */
function sameSetup(a: PostgresHandlerPlugin, b: PostgresHandlerPlugin): boolean {
  return a === b || (a.setup === b.setup && !/\bthis\b/.test(String(a.setup)));
}
