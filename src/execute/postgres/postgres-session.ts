/**
 * What every PostgreSQL mode runner holds for its life: the server (`server.ts`), its template
 * and run database (`run-database.ts`), a harness connection (world events, resets, snapshots,
 * ending a hung backend) and one connection per lane, each its own server backend, kept open
 * from run to run and cleaned between runs (`session-lane.ts`), so nothing one run did to a
 * session reaches the next. `close()` ends every connection and drops every database the runner
 * made; it runs on failure and on SIGINT/SIGTERM too (`interrupt.ts`); `release()` keeps the
 * databases a moment for the next runner (`idle-database.ts`).
 */
import pg from 'pg';
import { messageOf, ReceiptcheckError } from '../../errors.ts';
import type { PostgresHandlerPlugin } from '../../handlers/postgres/plugin.ts';
import type { Fixture } from '../../model/world.ts';
import { onInterrupt } from '../runtime/interrupt.ts';
import { keepIdleDatabase, takeIdleDatabase } from './idle-database.ts';
import { RunDatabase } from './run-database.ts';
import { acquirePostgres, type PostgresServer } from './server.ts';
import {
  backendOf,
  cleanedLane,
  faceOf,
  type Lane,
  narrow,
  noteBackend,
  SESSION_RESET,
  TERMINATE_WAIT_MS,
} from './session-lane.ts';

/** What a mode asks of its session beyond the defaults. */
export interface SessionOptions {
  /**
   * A statement run on every lane connection when it opens and after every cleaning (scheduled
   * mode pushes PostgreSQL's deadlock timer out of the way); a failure of it is ignored.
   */
  readonly laneSetup?: string;
}

/** One runner's server, databases and connections. */
export class PostgresSession {
  private readonly lanes: (Lane | undefined)[] = [];
  private harnessClient: pg.Client | undefined;
  /** A side connection that only reads the lock table (`waitsOnIdle`), opened on first use. */
  private watchClient: Promise<pg.Client> | undefined;
  private closing: Promise<void> | undefined; // once closed or released: `close` waits on it
  private readonly untrack: () => void;
  private laneSetupSql: string | undefined; // `options.laneSetup`, until it failed once
  private dirty: boolean; // whether the run database needs a reset before the next run (`begin`)

  private constructor(
    readonly server: PostgresServer,
    public database: RunDatabase | undefined, // its `name` is read by `pg-service-database.ts`
    options: SessionOptions,
    /** Every database this runner made (or took over), to drop. */
    private readonly made: Set<string>,
    /** For whom the databases may be kept when the runner closes (`idle-database.ts`). */
    private readonly keepFor: { plugin: PostgresHandlerPlugin; fixture: Fixture } | undefined,
  ) {
    this.untrack = onInterrupt(() => this.close());
    this.dirty = database !== undefined;
    this.laneSetupSql = options.laneSetup;
  }

  /**
   * Acquires the server and makes the template and run database for `plugin` and `fixture`, or
   * takes those a closed runner of the same plugin and fixture kept (embedded server only).
   */
  static async open(
    plugin: PostgresHandlerPlugin,
    fixture: Fixture,
    databaseUrl: string | undefined,
    options: SessionOptions = {},
  ): Promise<PostgresSession> {
    const url = databaseUrl ?? process.env.RECEIPTCHECK_DATABASE_URL;
    const keepFor = url ? undefined : { plugin, fixture };
    const idle = keepFor && takeIdleDatabase(plugin, fixture);
    if (idle)
      return new PostgresSession(idle.server, idle.database, options, new Set(idle.made), keepFor);
    const server = await acquirePostgres(url);
    const session = new PostgresSession(server, undefined, options, new Set(), keepFor);
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

  /** Before every run: puts the run database back as `setup` left it, unless nothing ran on it yet. */
  async begin(): Promise<void> {
    if (this.dirty) await this.reset();
    this.dirty = true;
  }

  /**
   * The runner is done: its connections end, and its databases are kept a moment for the next
   * runner of the same plugin (`idle-database.ts`), or dropped as `close` drops them.
   */
  async release(): Promise<void> {
    const database = this.database;
    if (this.closing || !this.keepFor || !database) return this.close();
    this.closing = Promise.resolve();
    this.untrack();
    await this.dropConnections();
    keepIdleDatabase(this.keepFor.plugin, this.keepFor.fixture, {
      server: this.server,
      database,
      made: this.made,
    });
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
    await this.laneSetup(client);
    const lane = faceOf(client);
    this.lanes[i] = lane;
    return lane;
  }

  /** Lane `i`'s connection is the session's no more (its backend ended or ends); the caller ends it. */
  forgetLane(i: number): void {
    this.lanes[i]?.seal();
    this.lanes[i] = undefined;
  }

  /** The harness connection is the session's no more (its backend ended); the next use opens one. */
  forgetHarness(): void {
    const client = this.harnessClient;
    this.harnessClient = undefined;
    void client?.end().catch(() => {});
  }

  /** A side connection that only watches the others (the lock table, ending a backend); kept. */
  watcher(): Promise<pg.Client> {
    if (!this.watchClient) {
      const opening = this.connect();
      this.watchClient = opening;
      opening.catch(() => {
        if (this.watchClient === opening) this.watchClient = undefined;
      });
    }
    return this.watchClient;
  }

  /**
   * Ends lane `i`'s backend mid-whatever (a hung call, a lock it will never release) from the
   * harness connection; the lane gets a fresh connection on next use.
   */
  async terminateLane(i: number): Promise<void> {
    const lane = this.lanes[i];
    if (!lane) return;
    lane.seal();
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
    const watch = await this.watcher();
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
   * Puts the run database back as `setup` left it: every lane cleaned (`cleanLane`), side by
   * side, then `RunDatabase.reset` on the harness connection.
   */
  async reset(): Promise<void> {
    await Promise.all(this.lanes.map((lane, i) => (lane ? this.cleanLane(i, lane) : undefined)));
    const harness = await this.harness();
    if (harness.getTransactionStatus() !== 'I') await harness.query('ROLLBACK');
    await harness.query(SESSION_RESET);
    const kept = await (this.database as RunDatabase).reset(harness, (n) => this.made.add(n));
    if (!kept) await this.dropConnections();
  }

  /** Ends every connection and drops every database this runner made; a second call waits for the first. */
  close(): Promise<void> {
    this.closing ??= this.shut();
    return this.closing;
  }

  private async shut(): Promise<void> {
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

  /** Lane `i` cleaned for the next run (`cleanedLane`), or its backend ended and the lane forgotten. */
  private async cleanLane(i: number, lane: Lane): Promise<void> {
    const cleaned = await cleanedLane(lane, this.laneSetupSql);
    this.lanes[i] = cleaned;
    if (!cleaned) await this.terminate(lane.client).catch(() => lane.client.end().catch(() => {}));
  }

  /** Runs the lanes' own settings on a new lane; where they fail (not a superuser), never again. */
  private async laneSetup(client: pg.Client): Promise<void> {
    const sql = this.laneSetupSql;
    if (sql)
      await client.query(sql).catch(() => {
        this.laneSetupSql = undefined;
      });
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
    if (this.closing)
      throw new ReceiptcheckError('E_INTERNAL', 'a closed PostgreSQL runner was asked to connect');
    const client = new pg.Client(this.server.connectionFor((this.database as RunDatabase).name));
    // A terminated backend or a server stopped by Ctrl-C errors here; the query that was
    // waiting rejects on its own, so the event only needs a listener.
    client.on('error', () => {});
    await client.connect();
    await noteBackend(client);
    return client;
  }
}
