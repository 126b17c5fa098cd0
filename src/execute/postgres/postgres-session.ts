/**
 * What every PostgreSQL mode runner holds for its life: the server (`server.ts`), its template
 * and run database (`run-database.ts`), a harness connection (world events, resets, snapshots,
 * ending a hung backend) and one connection per lane, each its own server backend, kept open
 * from run to run and cleaned between runs (`kept-lanes.ts`, `run-reset.ts`), so nothing one
 * run did to a session reaches the next. `close()` ends every connection and drops every
 * database the runner made; it runs on failure and on SIGINT/SIGTERM too (`interrupt.ts`);
 * `release()` keeps the databases and connections a moment for the next runner
 * (`idle-database.ts`).
 */
import pg from 'pg';
import { ReceiptcheckError } from '../../errors.ts';
import type { PostgresHandlerPlugin } from '../../handlers/postgres/plugin.ts';
import type { Fixture } from '../../model/world.ts';
import { onInterrupt } from '../runtime/interrupt.ts';
import {
  type IdleDatabase,
  type KeptConnections,
  keepIdleDatabase,
  takeIdleDatabase,
} from './idle-database.ts';
import { KeptLanes } from './kept-lanes.ts';
import { blockedByIdle } from './lock-left-behind.ts';
import { pgSetup } from './postgres-events.ts';
import { RunDatabase } from './run-database.ts';
import { RunReset } from './run-reset.ts';
import { acquirePostgres, type PostgresServer } from './server.ts';
import {
  backendOf,
  type Lane,
  narrow,
  noteBackend,
  SESSION_RESET,
  type SessionOptions,
  TERMINATE_WAIT_MS,
} from './session-lane.ts';
import { SpareConnection } from './spare-connection.ts';

/** One runner's server, databases and connections. */
export class PostgresSession {
  /** The lanes' connections (`kept-lanes.ts`). */
  private readonly lanes: KeptLanes;
  private harnessClient: pg.Client | undefined;
  /** A side connection that only reads the lock table (`waitsOnIdle`), opened on first use. */
  private watchClient: Promise<pg.Client> | undefined;
  private closing: Promise<void> | undefined; // once closed or released: `close` waits on it
  private readonly untrack: () => void;
  /** When the run database is reset: after each run, or before one (`run-reset.ts`). */
  private readonly resets: RunReset;
  /** Replacements for ended connections, one opened ahead (`spare-connection.ts`). */
  private readonly spare = new SpareConnection(() => this.connect());

  /** The server; its template and run database, once made (`open`; `pg-service-database.ts` reads it). */
  readonly server: PostgresServer;
  database: RunDatabase | undefined;
  /** Every database this runner made (or took over), to drop. */
  private readonly made: Set<string>;

  /** A session on `from`: a server, or what a closed runner kept (`idle-database.ts`). */
  private constructor(
    options: SessionOptions,
    /** For whom the databases may be kept when the runner closes (`idle-database.ts`). */
    private readonly keepFor: { plugin: PostgresHandlerPlugin; fixture: Fixture } | undefined,
    from: { server: PostgresServer } | IdleDatabase,
  ) {
    this.server = from.server;
    const kept = 'database' in from ? from : undefined;
    this.database = kept?.database;
    this.made = new Set(kept?.made);
    this.harnessClient = kept?.connections.harness;
    this.lanes = new KeptLanes(
      {
        take: () => this.spare.take(),
        prepare: () => this.spare.prepare(),
        terminate: (client) => this.terminate(client),
      },
      options.laneSetup,
      kept?.connections.lanes,
    );
    if (kept?.connections.watcher) this.watchClient = Promise.resolve(kept.connections.watcher);
    this.untrack = onInterrupt(() => this.close());
    this.resets = new RunReset(() => this.resetNow(), kept !== undefined);
  }

  /**
   * Acquires the server and makes the template and run database for `plugin` and `fixture`, or
   * takes those and their connections a runner of the same plugin and fixture kept at close.
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
    if (idle) return new PostgresSession(options, keepFor, idle);
    const session = new PostgresSession(options, keepFor, { server: await acquirePostgres(url) });
    try {
      session.database = await RunDatabase.open(
        session.server,
        fixture,
        (client, f) => pgSetup(plugin, narrow(client), f),
        (name) => session.made.add(name),
      );
    } catch (thrown) {
      await session.close();
      throw thrown;
    }
    return session;
  }

  /** Before every run: the run database as `setup` left it (`run-reset.ts`). */
  begin(): Promise<void> {
    return this.resets.begin();
  }

  /** A run is over and nothing of it touches the database again: its reset starts now. */
  finish(): void {
    if (!this.closing) this.resets.finish();
  }

  /** The runner is done: all is kept for the next runner (`idle-database.ts`), or `close`d. */
  async release(): Promise<void> {
    await this.resets.settled();
    const database = this.database;
    if (this.closing || !this.keepFor || !database) return this.close();
    this.closing = Promise.resolve();
    this.untrack();
    // Plugin code this runner left behind reaches none of them; the next runner cleans them.
    this.lanes.sealAll();
    const [connections] = await Promise.all([this.detach(), this.spare.drop()]);
    keepIdleDatabase(this.keepFor.plugin, this.keepFor.fixture, {
      server: this.server,
      database,
      made: this.made,
      connections,
    });
  }

  /** The harness's own connection to the run database. */
  async harness(): Promise<pg.Client> {
    this.harnessClient ??= await this.spare.take();
    return this.harnessClient;
  }

  /** Lane `i`'s connection, opened on first use. */
  lane(i: number): Promise<Lane> {
    return this.lanes.lane(i);
  }

  /** Lane `i` made as a new backend would be after a crash, on the same backend (`kept-lanes.ts`). */
  restartLane(i: number): Promise<boolean> {
    return this.lanes.restart(i);
  }

  /** Lane `i`'s connection is the session's no more (its backend ended or ends); the caller ends it. */
  forgetLane(i: number): void {
    this.lanes.forget(i);
  }

  /** The harness connection is the session's no more (its backend ended); the next use opens one. */
  forgetHarness(): void {
    const client = this.harnessClient;
    this.harnessClient = undefined;
    void client?.end().catch(() => {});
    this.spare.prepare();
  }

  /** A side connection that only watches the others (the lock table, ending a backend); kept. */
  watcher(): Promise<pg.Client> {
    if (this.watchClient) return this.watchClient;
    const opening = this.connect();
    this.watchClient = opening;
    opening.catch(() => {
      if (this.watchClient === opening) this.watchClient = undefined;
    });
    return opening;
  }

  /** Ends lane `i`'s backend (a hung call, a lock it keeps); its next use opens a new one. */
  async terminateLane(i: number): Promise<void> {
    const lane = this.lanes.forget(i);
    if (lane) await this.terminate(lane.client);
  }

  /** The harness connection's backend, if it is open. */
  get harnessBackend(): number | undefined {
    return this.harnessClient && backendOf(this.harnessClient);
  }

  /**
   * Whether backend `pid` waits on a lock that a connection of this session running nothing (not
   * in `busy`) holds: a lock its last call left behind, which nothing releases during the run.
   */
  async waitsOnIdle(pid: number, busy: ReadonlySet<number>): Promise<boolean> {
    const watch = narrow(await this.watcher());
    return blockedByIdle(watch, pid, () => {
      const open = [...this.lanes.backends(), this.harnessBackend];
      return new Set(open.filter((b) => b !== undefined && !busy.has(b)));
    });
  }

  /** Ends the harness connection's backend (a world event that hung on it). */
  async terminateHarness(): Promise<void> {
    const client = this.harnessClient;
    this.harnessClient = undefined;
    if (!client) return;
    const side = await this.watcher();
    this.spare.prepare();
    await side.query('SELECT pg_terminate_backend($1, $2)', [backendOf(client), TERMINATE_WAIT_MS]);
    await client.end().catch(() => {});
  }

  /** A reset now, when the runner says (a service's database, its connections idle). */
  reset(): Promise<void> {
    return this.resets.now();
  }

  /**
   * Puts the run database back as `setup` left it: the lanes handed out since the last reset
   * cleaned side by side (no one held a face of the others), and the harness, with the rows. A
   * lane that may still hold row or table locks (a transaction open, a query out) is cleaned (or
   * ended) first, so that nothing it held or sent meets the rows put back; an idle one holds none
   * (its session-level locks take no rows), so it is cleaned beside the rows, in the same round
   * trip's time. With no lane busy and the harness open, nothing is awaited before the queries
   * go out, so `finish` has sent them when it returns: an await first would hold them until the
   * judge and the next draw give the event loop a turn (measured: 0.5 ms a run more waiting).
   */
  private async resetNow(): Promise<void> {
    const { busy, idle } = this.lanes.toClean();
    if (busy.length > 0) await Promise.all(busy.map((i) => this.lanes.clean(i)));
    const harness = this.harnessClient ?? (await this.harness());
    if (harness.getTransactionStatus() !== 'I') await harness.query('ROLLBACK');
    const database = this.database as RunDatabase;
    const [kept] = await Promise.all([
      database.reset(harness, (n) => this.made.add(n), SESSION_RESET),
      ...idle.map((i) => this.lanes.clean(i)),
    ]);
    if (!kept) await this.dropConnections();
  }

  /** Ends every connection and drops every database this runner made; a second call waits for the first. */
  close(): Promise<void> {
    this.closing ??= this.resets.settled().then(() => this.shut());
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
    const [{ harness, lanes, watcher }] = await Promise.all([this.detach(), this.spare.drop()]);
    const clients = [harness, watcher, ...lanes.map((l) => l?.client)];
    await Promise.all(clients.map((c) => c?.end().catch(() => {})));
  }

  /** Every connection, the session's no more. */
  private async detach(): Promise<KeptConnections> {
    const watch = this.watchClient;
    const kept = { harness: this.harnessClient, lanes: this.lanes.detach() };
    this.watchClient = this.harnessClient = undefined;
    return { ...kept, watcher: await watch?.catch(() => undefined) };
  }

  private async terminate(client: pg.Client): Promise<void> {
    this.spare.prepare();
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
