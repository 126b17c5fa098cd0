/**
 * The plugin interface for a handler on PostgreSQL: the same functions as a SQLite plugin
 * (`../plugin.ts`), async, on a connection the harness opens and owns. The harness gives every
 * lane its own connection (its own server backend), so two calls really overlap on the server;
 * in scheduled mode every `query` is a yield point. A plugin never opens a connection of its own.
 */
import type { CallRequest, SetIntervalRequest } from '../../model/events.ts';
import type { OperationSpec, Row } from '../../model/operation.ts';
import type { Outcome } from '../../model/outcome.ts';
import type { PolicyDeclaration } from '../../model/policy.ts';
import type { Fixture, Principal, SetIntervalFixture, Snapshot } from '../../model/world.ts';

/** What one query returns: the rows, and how many rows a write touched. */
export interface PgResult<R> {
  readonly rows: R[];
  readonly rowCount: number | null;
}

/**
 * A PostgreSQL connection, opened and owned by the harness: the one method of `pg`'s client a
 * plugin may use. Keeping it this narrow is what lets scheduled mode see every statement.
 */
export interface PgConnection {
  query<R = Record<string, unknown>>(
    text: string,
    values?: readonly unknown[],
  ): Promise<PgResult<R>>;
}

/** A handler plugin on PostgreSQL; `F` and `Q` as for `HandlerPlugin`. */
// biome-ignore lint/suspicious/noExplicitAny: any operation's plugin is a PostgresHandlerPlugin; definePostgresHandler types one
export interface PostgresHandlerPlugin<F extends Fixture = any, Q extends CallRequest = any> {
  /** Marks the plugin as one for PostgreSQL. */
  readonly engine: 'postgres';
  readonly name: string;
  readonly operation?: string | OperationSpec;
  readonly description?: string;
  readonly policy?: PolicyDeclaration;
  /** Creates the schema and inserts the fixture's rows, in an empty database. Runs once per template. */
  setup(db: PgConnection, fixture: F): Promise<void>;
  /** The call under test, as for SQLite; the harness sees every query it sends. */
  call(db: PgConnection, principal: Principal, request: Q): Promise<Outcome>;
  move(db: PgConnection, id: number, workspace: string): Promise<void>;
  delete(db: PgConnection, id: number): Promise<void>;
  recreate?(db: PgConnection, row: Row): Promise<void>;
  failReceipts(db: PgConnection): Promise<void>;
  restoreReceipts(db: PgConnection): Promise<void>;
  advanceClock?(db: PgConnection, ms: number): Promise<void>;
  snapshot(db: PgConnection): Promise<Snapshot>;
}

/** Declares a PostgreSQL handler plugin with full type checking; returns it unchanged. */
export function definePostgresHandler<
  F extends Fixture = SetIntervalFixture,
  Q extends CallRequest = SetIntervalRequest,
>(plugin: PostgresHandlerPlugin<F, Q>): PostgresHandlerPlugin<F, Q> {
  return plugin;
}

/** True when `plugin` declares itself a PostgreSQL plugin. */
export function isPostgresPlugin(plugin: object): plugin is PostgresHandlerPlugin {
  return (plugin as { engine?: unknown }).engine === 'postgres';
}
