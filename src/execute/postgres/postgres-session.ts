/**
 * What every PostgreSQL mode runner holds for its life: the server (`server.ts`), its template
 * and run database (`run-database.ts`), a harness connection (world events, resets, snapshots,
 * ending a hung backend) and one connection per lane, each its own server backend, kept open
 * from run to run and cleaned between runs. `close()` ends every connection and drops every
 * database the runner made; it runs on failure and on SIGINT/SIGTERM too (`interrupt.ts`).
 */
import pg from 'pg';
import { messageOf, ReceiptcheckError } from '../../errors.ts';
import type {
  PgConnection,
  PgResult,
  PostgresHandlerPlugin,
} from '../../handlers/postgres/plugin.ts';
import type { Fixture } from '../../model/world.ts';
import { onInterrupt } from '../runtime/interrupt.ts';
import { RunDatabase } from './run-database.ts';
import { acquirePostgres, type PostgresServer } from './server.ts';

/**
 * How long ending a backend waits for it to be gone (PostgreSQL 14+ waits when given a timeout),
 * so the locks it held are free when the harness goes on.
 */
const TERMINATE_WAIT_MS = 5_000;

/** A lane's connection: the client the harness owns, and the narrow face the plugin sees. */
export interface Lane {
  readonly client: pg.Client;
  readonly db: PgConnection;
  /** The server process serving this connection, for `pg_terminate_backend`. */
  readonly backend: number;
}

/** One runner's server, databases and connections. */
export class PostgresSession {
  private readonly lanes: (Lane | undefined)[] = [];
  private harnessClient: pg.Client | undefined;
  /** A side connection that only reads the lock table (`waitsOnIdle`), opened on first use. */
  private watchClient: Promise<pg.Client> | undefined;
  private closed = false;
  private readonly untrack: () => void;
  private readonly made = new Set<string>();

  private constructor(
    readonly server: PostgresServer,
    private database: RunDatabase | undefined,
  ) {
    this.untrack = onInterrupt(() => this.close());
  }

  /** Acquires the server and makes the template and run database for `plugin` and `fixture`. */
  static async open(
    plugin: PostgresHandlerPlugin,
    fixture: Fixture,
    databaseUrl: string | undefined,
  ): Promise<PostgresSession> {
    const server = await acquirePostgres(databaseUrl ?? process.env.RECEIPTCHECK_DATABASE_URL);
    const session = new PostgresSession(server, undefined);
    try {
      session.database = await RunDatabase.open(
        server,
        fixture,
        async (client, f) => {
          try {
            await plugin.setup(narrow(client), f);
          } catch (thrown) {
            throw new ReceiptcheckError(
              'E_HANDLER_SETUP',
              `handler "${plugin.name}": setup failed on PostgreSQL: ${messageOf(thrown)}`,
              { cause: thrown },
            );
          }
        },
        (name) => session.made.add(name),
      );
    } catch (thrown) {
      await session.close();
      throw thrown;
    }
    return session;
  }

  /** The harness's own connection to the run database. */
  async harness(): Promise<pg.Client> {
    this.harnessClient ??= await this.connect();
    return this.harnessClient;
  }

  /** Lane `i`'s connection, opened on first use. */
  async lane(i: number): Promise<Lane> {
    const found = this.lanes[i];
    if (found) return found;
    const client = await this.connect();
    const backend = backendOf(client);
    const lane: Lane = { client, db: narrow(client), backend };
    this.lanes[i] = lane;
    return lane;
  }

  /**
   * Ends lane `i`'s backend mid-whatever (a hung call, a lock it will never release) from the
   * harness connection; the lane gets a fresh connection on next use.
   */
  async terminateLane(i: number): Promise<void> {
    const lane = this.lanes[i];
    if (!lane) return;
    this.lanes[i] = undefined;
    await this.terminate(lane.client);
  }

  /** The harness connection's backend, if it is open. */
  get harnessBackend(): number | undefined {
    return this.harnessClient && backendOf(this.harnessClient);
  }

  /**
   * Whether backend `pid` waits on a lock that one of this session's connections holds while
   * running nothing (all but `busy`, the backends running plugin code now): a lock its last call
   * left behind, which nothing will release until the run is over.
   */
  async waitsOnIdle(pid: number, busy: ReadonlySet<number>): Promise<boolean> {
    if (!this.watchClient) {
      const opening = this.connect();
      this.watchClient = opening;
      opening.catch(() => {
        if (this.watchClient === opening) this.watchClient = undefined;
      });
    }
    const watch = await this.watchClient;
    const { rows } = await watch.query<{ blockers: number[] }>(
      'SELECT pg_blocking_pids($1) AS blockers',
      [pid],
    );
    const blockers = rows[0]?.blockers ?? [];
    if (blockers.length === 0) return false;
    const idle = new Set<number>();
    for (const lane of this.lanes) if (lane && !busy.has(lane.backend)) idle.add(lane.backend);
    const harness = this.harnessBackend;
    if (harness !== undefined && !busy.has(harness)) idle.add(harness);
    return blockers.some((b) => idle.has(b));
  }

  /** Ends the harness connection's backend (a world event that hung on it). */
  async terminateHarness(): Promise<void> {
    const client = this.harnessClient;
    this.harnessClient = undefined;
    if (!client) return;
    const side = await this.connect();
    try {
      await side.query('SELECT pg_terminate_backend($1, $2)', [
        backendOf(client),
        TERMINATE_WAIT_MS,
      ]);
    } finally {
      await side.end().catch(() => {});
    }
    await client.end().catch(() => {});
  }

  /**
   * Puts the run database back as `setup` left it: every lane's transaction rolled back and its
   * session state discarded (locks, prepared statements, settings), then `RunDatabase.reset`.
   */
  async reset(): Promise<void> {
    for (const [i, lane] of this.lanes.entries()) {
      if (!lane) continue;
      try {
        if (lane.client.getTransactionStatus() !== 'I') await lane.client.query('ROLLBACK');
        await lane.client.query('DISCARD ALL');
      } catch {
        // A connection the run broke (a terminated backend): replaced on next use.
        this.lanes[i] = undefined;
        await lane.client.end().catch(() => {});
      }
    }
    const harness = await this.harness();
    if (harness.getTransactionStatus() !== 'I') await harness.query('ROLLBACK');
    const kept = await (this.database as RunDatabase).reset(harness, (n) => this.made.add(n));
    if (!kept) await this.dropConnections();
  }

  /** Ends every connection and drops every database this runner made. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.dropConnections();
      // At once, not in turn: after Ctrl-C the process exits within `INTERRUPT_GRACE_MS`.
      const made = [...this.made];
      this.made.clear();
      await Promise.all(made.map((name) => this.server.dropDatabase(name).catch(() => {})));
    } finally {
      this.untrack();
      await this.server.release();
    }
  }

  private async dropConnections(): Promise<void> {
    const watch = this.watchClient?.catch(() => undefined);
    this.watchClient = undefined;
    const clients = [this.harnessClient, ...this.lanes.map((l) => l?.client), await watch];
    this.harnessClient = undefined;
    this.lanes.length = 0;
    await Promise.all(clients.map((c) => c?.end().catch(() => {})));
  }

  private async terminate(client: pg.Client): Promise<void> {
    const harness = await this.harness();
    await harness.query('SELECT pg_terminate_backend($1, $2)', [
      backendOf(client),
      TERMINATE_WAIT_MS,
    ]);
    await client.end().catch(() => {});
  }

  private async connect(): Promise<pg.Client> {
    if (this.closed)
      throw new ReceiptcheckError('E_INTERNAL', 'a closed PostgreSQL runner was asked to connect');
    const client = new pg.Client(this.server.connectionFor((this.database as RunDatabase).name));
    // A terminated backend or a server stopped by Ctrl-C errors here; the query that was
    // waiting rejects on its own, so the event only needs a listener.
    client.on('error', () => {});
    await client.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    backends.set(client, rows[0]?.pid as number);
    return client;
  }
}

const backends = new WeakMap<pg.Client, number>();

/** The server process of a connection this file opened. */
function backendOf(client: pg.Client): number {
  return backends.get(client) as number;
}

/** The one method of `client` a plugin may use: its queries, and nothing that ends or reconnects it. */
export function narrow(client: pg.Client): PgConnection {
  return {
    query: <R>(text: string, values?: readonly unknown[]) =>
      client.query(text, values as unknown[] | undefined) as unknown as Promise<PgResult<R>>,
  };
}
