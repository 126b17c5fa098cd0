/**
 * A described service's database on PostgreSQL (`service-database.ts` is the port): a database
 * on the server a PostgreSQL plugin runs on (the embedded one, or `--database-url`'s), made,
 * reset and dropped by the same `PostgresSession` (`../postgres/postgres-session.ts`), with the
 * description's SQL as its world (`pg-service-world.ts`). The service is given the database's
 * URL; the harness keeps a connection of its own for world events, resets and snapshots.
 *
 * The reset (`run-database.ts`) deletes and re-inserts every table's rows in place while the
 * service keeps its connections open. An idle connection holds no lock, so nothing waits; a
 * connection left inside a transaction would hold row locks the reset waits on forever. So before
 * each reset the harness waits, at most the call budget, for every other connection to the
 * database to be outside a transaction, and otherwise stops with `E_SERVICE_TRANSACTION`, naming
 * the connection's state and last statement. A reset that had to copy the template instead (the
 * run changed the schema) ends every connection to the old database: `reset` then says the
 * database moved, and the runner starts the service again with the new URL.
 */
import type pg from 'pg';
import { ReceiptcheckError } from '../../../errors.ts';
import type { PostgresHandlerPlugin } from '../../../handlers/postgres/plugin.ts';
import type { Snapshot } from '../../../model/world.ts';
import type { OneModeOptions } from '../../../types/options.ts';
import { pgSnapshot, pgWorldEvent } from '../../postgres/postgres-events.ts';
import { PostgresSession } from '../../postgres/postgres-session.ts';
import { narrow, TERMINATE_WAIT_MS } from '../../postgres/session-lane.ts';
import type { ServicePlugin } from '../service-plugin.ts';
import { pgServiceWorld } from './pg-service-world.ts';
import type { DatabaseEvent, ServiceDatabase } from './service-database.ts';

/** Between two looks for a connection still inside a transaction, in ms. */
const QUIET_POLL_MS = 5;

/** The other connections to this database that are inside a transaction. */
const IN_TRANSACTION = `
SELECT pid, state, left(query, 200) AS query FROM pg_stat_activity
  WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL`;

/** A service's database on PostgreSQL. */
export class PgServiceDatabase implements ServiceDatabase {
  readonly engine = 'postgres';

  private constructor(
    private readonly plugin: ServicePlugin,
    /** The description's SQL as a PostgreSQL plugin's world. */
    readonly world: PostgresHandlerPlugin,
    /** The server, the template and run database, and the harness's connection. */
    readonly session: PostgresSession,
    /** The longest wait for the service's connections to leave their transactions, in ms. */
    private readonly quietLimitMs: number,
  ) {}

  /** Acquires the server and makes the template and the run database from the description. */
  static async open(
    plugin: ServicePlugin,
    options: Pick<OneModeOptions, 'fixture' | 'databaseUrl' | 'callTimeoutMs'>,
  ): Promise<PgServiceDatabase> {
    const world = pgServiceWorld(plugin.service);
    const session = await PostgresSession.open(world, options.fixture, options.databaseUrl);
    return new PgServiceDatabase(plugin, world, session, options.callTimeoutMs);
  }

  /** The run database's `postgres://` URL on the server. */
  get location(): string {
    return urlOf(this.connectionConfig());
  }

  /** The run database's connection settings on the server (what a proxy in front of it dials). */
  connectionConfig(): pg.ClientConfig {
    const name = this.session.database?.name;
    if (name === undefined) throw new Error('the service database has no run database');
    return this.session.server.connectionFor(name);
  }

  async reset(): Promise<boolean> {
    const before = this.session.database?.name;
    await this.waitForQuiet();
    await this.session.reset();
    return this.session.database?.name !== before;
  }

  async apply(event: DatabaseEvent): Promise<void> {
    await pgWorldEvent(this.world, narrow(await this.session.harness()), event);
  }

  async snapshot(): Promise<Snapshot> {
    return pgSnapshot(this.world, narrow(await this.session.harness()));
  }

  /** Ends every other backend on the database: the stopped service's, which may wait on a lock. */
  async serviceStopped(): Promise<void> {
    const harness = await this.session.harness();
    await harness.query(
      'SELECT pg_terminate_backend(pid, $1) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      [TERMINATE_WAIT_MS],
    );
  }

  /**
   * Ends the harness's connection and lets the databases go: kept a moment for the next runner
   * on the embedded server (`idle-database.ts`), dropped otherwise. The service is stopped first.
   */
  async dispose(): Promise<void> {
    await this.session.release();
  }

  /** Waits until no other connection is inside a transaction; throws when one stays past the limit. */
  private async waitForQuiet(): Promise<void> {
    const harness = await this.session.harness();
    const until = performance.now() + this.quietLimitMs;
    for (;;) {
      const { rows } = await harness.query<{ pid: number; state: string; query: string }>(
        IN_TRANSACTION,
      );
      const open = rows[0];
      if (!open) return;
      if (performance.now() >= until)
        throw keptTransaction(this.plugin.name, `backend ${open.pid}, ${open.state}`, open.query);
      await new Promise((resolve) => setTimeout(resolve, QUIET_POLL_MS));
    }
  }
}

/** `config` as a `postgres://` URL. */
export function urlOf(config: pg.ClientConfig): string {
  if (config.connectionString) return config.connectionString;
  const user = encodeURIComponent(config.user ?? '');
  const password =
    typeof config.password === 'string' ? `:${encodeURIComponent(config.password)}` : '';
  return `postgres://${user}${password}@${config.host ?? 'localhost'}:${config.port ?? 5432}/${encodeURIComponent(config.database ?? '')}`;
}

/** A service left a transaction open between requests (`which`: its backend), `sql` last. */
export function keptTransaction(service: string, which: string, sql: string): ReceiptcheckError {
  return new ReceiptcheckError(
    'E_SERVICE_TRANSACTION',
    `service "${service}" kept a transaction open between requests (${which}, its last statement: ${sql.replace(/\s+/g, ' ').slice(0, 200)}); the harness resets the database in place between runs and cannot while a transaction holds its rows: commit or roll back before answering each request`,
  );
}
