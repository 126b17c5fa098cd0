/**
 * A kept connection as the plugin sees it: the `pg` client the harness owns, its server backend,
 * and a face (`query` only) made afresh for each run and sealed when the run is over, so plugin
 * code a run left behind (a query it never awaited, a timer) cannot reach the next run's
 * session; the face counts the queries it has out, so the harness knows whether the connection
 * is quiet.
 */
import type pg from 'pg';
import type { PgConnection, PgResult } from '../../handlers/postgres/plugin.ts';

/** What a mode asks of its session's lanes beyond the defaults. */
export interface SessionOptions {
  /** Run on every lane when it opens or is cleaned (scheduled mode's deadlock timer); may fail. */
  readonly laneSetup?: string;
}

/** A lane's connection: the client the harness owns, and the narrow face the plugin sees. */
export interface Lane {
  readonly client: pg.Client;
  /** The plugin's face of it for this run, sealed when the run is over. */
  readonly db: PgConnection;
  /** The server process serving this connection, for `pg_terminate_backend`. */
  readonly backend: number;
  /** Queries sent through `db` with no answer yet. */
  readonly pending: () => number;
  /** Makes every later query through `db` throw without reaching the server. */
  readonly seal: () => void;
}

const backends = new WeakMap<pg.Client, number>();

/** Notes `client`'s server process, once it is connected. */
export async function noteBackend(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const pid = rows[0]?.pid as number;
  backends.set(client, pid);
  return pid;
}

/** The server process of a connection `noteBackend` saw. */
export function backendOf(client: pg.Client): number {
  return backends.get(client) as number;
}

/** A lane over `client` with a fresh face for one run. */
export function faceOf(client: pg.Client): Lane {
  let pending = 0;
  let sealed = false;
  const face = narrow(client);
  const db: PgConnection = {
    query: <R>(text: string, values?: readonly unknown[]) => {
      if (sealed)
        return Promise.reject(
          new Error('receiptcheck: this connection belonged to a run that is over'),
        );
      pending++;
      const sent = face.query<R>(text, values);
      const done = () => {
        pending--;
      };
      sent.then(done, done);
      return sent;
    },
  };
  return {
    client,
    db,
    backend: backendOf(client),
    pending: () => pending,
    seal: () => {
      sealed = true;
    },
  };
}

/** How long ending a backend waits for it to be gone (PostgreSQL 14+), so its locks are free after. */
export const TERMINATE_WAIT_MS = 5_000;

/**
 * What `DISCARD ALL` does (session locks, settings, prepared statements, cursors, temporary
 * tables, listens), as statements that may share one round trip with others: `DISCARD ALL`
 * itself may not (it refuses to run in the implicit transaction of a multi-statement query).
 * All but `DISCARD PLANS`: a cached plan never changes a result (the server plans again when
 * what it depends on changes), and dropping them made the harness's reset plan its own catalogue
 * reads again every time (after a run's trigger DDL, 1.13 against 0.48 ms a reset, measured).
 */
export const SESSION_RESET = [
  'CLOSE ALL',
  'SET SESSION AUTHORIZATION DEFAULT',
  'RESET ALL',
  'DEALLOCATE ALL',
  'UNLISTEN *',
  'SELECT pg_advisory_unlock_all()',
  'DISCARD TEMP',
  'DISCARD SEQUENCES',
].join('; ');

/**
 * `lane` ready for the next run with nothing of this one: its face sealed, its transaction
 * rolled back, its session reset (`SESSION_RESET`) and `setup` (the session's own settings) run
 * again, all in one round trip, under a new face. Undefined when plugin code still has a query out
 * on it (never awaited) or the cleaning fails (a backend the run ended): then its backend is to
 * be ended, and the lane replaced.
 */
export async function cleanedLane(
  lane: Lane,
  setup: string | undefined,
): Promise<Lane | undefined> {
  lane.seal();
  if (lane.pending() > 0) return undefined;
  try {
    await lane.client.query(sessionCleaning(lane.client.getTransactionStatus() !== 'I', setup));
    if (lane.client.getTransactionStatus() !== 'I') return undefined;
    return faceOf(lane.client);
  } catch {
    return undefined;
  }
}

/**
 * The query that cleans a session: `DISCARD ALL` alone when nothing else must go with it, as it
 * does what `SESSION_RESET` does for a quarter of the server's time (measured: 0.04 against
 * 0.17 ms); else `SESSION_RESET`, after a `ROLLBACK` when the session is in a transaction (which
 * ends the block, failed or not, so what follows runs outside it), before `setup`.
 */
export function sessionCleaning(inTransaction: boolean, setup: string | undefined): string {
  if (!inTransaction && !setup) return 'DISCARD ALL';
  return `${inTransaction ? 'ROLLBACK; ' : ''}${SESSION_RESET}${setup ? `; ${setup}` : ''}`;
}

/** The one method of `client` a plugin may use: its queries, and nothing that ends or reconnects it. */
export function narrow(client: pg.Client): PgConnection {
  return {
    query: <R>(text: string, values?: readonly unknown[]) =>
      client.query(text, values as unknown[] | undefined) as unknown as Promise<PgResult<R>>,
  };
}
