/**
 * The engines a handler plugin may run on: SQLite (a `HandlerPlugin`, the default, and the type
 * users of SQLite keep writing) and PostgreSQL (a `PostgresHandlerPlugin`, which says
 * `engine: 'postgres'`). The harness loads either and dispatches on `engineOf`.
 */
import { ReceiptcheckError } from '../errors.ts';
import type { HandlerPlugin } from './plugin.ts';
import { isPostgresPlugin, type PostgresHandlerPlugin } from './postgres/plugin.ts';

/** A database engine the harness runs handlers on. */
export type Engine = 'sqlite' | 'postgres';

/** The engines, in the order help texts name them. */
export const ENGINES: readonly Engine[] = ['sqlite', 'postgres'];

/** A plugin of any engine, as the loader returns it. */
export type AnyHandlerPlugin = HandlerPlugin | PostgresHandlerPlugin;

/** The engine `plugin` runs on: `postgres` when it says so, else SQLite. */
export function engineOf(plugin: AnyHandlerPlugin): Engine {
  return isPostgresPlugin(plugin) ? 'postgres' : 'sqlite';
}

/**
 * `plugin` as a SQLite plugin whose calls run in this process, for what runs only those so far
 * (`what`: "soak", "bench"); throws `E_BAD_OPTION` for a PostgreSQL plugin and `E_SERVICE_MODE`
 * for a described service (whose calls go to another process), saying so.
 */
export function requireSqlite(plugin: AnyHandlerPlugin, what: string): HandlerPlugin {
  // A described service's plugin (execute/service/service-plugin.ts) carries its description.
  if (typeof (plugin as { service?: unknown }).service === 'object')
    throw new ReceiptcheckError(
      'E_SERVICE_MODE',
      `${what} runs plugins only so far, and "${plugin.name}" is a described service; check it with \`receiptcheck run --service\` instead`,
    );
  if (isPostgresPlugin(plugin))
    throw new ReceiptcheckError(
      'E_BAD_OPTION',
      `${what} runs SQLite handlers only so far, and "${plugin.name}" is a PostgreSQL plugin; check it with \`receiptcheck run\` instead`,
    );
  return plugin;
}
