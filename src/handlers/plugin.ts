/**
 * The handler plugin interface: the one way receiptcheck talks to a handler under test.
 *
 * The harness opens every SQLite connection and passes it in; a plugin never opens its own.
 * That is what lets concurrent mode give each worker its own connection, and scheduled mode
 * turn every statement into a yield point. A plugin maps its handler's exceptions onto
 * `Outcome`s; anything it lets through is reported as an unexpected error, which is a failure.
 */
import type Database from 'better-sqlite3';
import { checkOperationSpec } from '../model/check-spec.ts';
import type { CallRequest, SetIntervalRequest } from '../model/events.ts';
import type { OperationSpec, Row } from '../model/operation.ts';
import { operationNamed, registerOperation } from '../model/operations/index.ts';
import type { Outcome } from '../model/outcome.ts';
import type { PolicyDeclaration } from '../model/policy.ts';
import type { Fixture, Principal, SetIntervalFixture, Snapshot } from '../model/world.ts';

/** A better-sqlite3 connection, opened and owned by the harness. */
export type Connection = Database.Database;

/**
 * What a handler module default-exports. Every function receives the harness's connection.
 * `F` is the fixture type `setup` receives: `SetIntervalFixture` for the default operation.
 */
// biome-ignore lint/suspicious/noExplicitAny: any operation's plugin is a HandlerPlugin; defineHandler types one
export interface HandlerPlugin<F extends Fixture = any, Q extends CallRequest = any> {
  /** Short name shown in reports, e.g. `reference`. */
  readonly name: string;
  /**
   * The operation the handler implements: a built-in's name (`set-interval`, the default,
   * `create-once`, `adjust-balance`) or a spec of its own (`defineOperation`).
   */
  readonly operation?: string | OperationSpec;
  /** One line: what this handler is, or for a mutant, the bug it carries. */
  readonly description?: string;
  /**
   * Where the handler's documented semantics depart from the contract (see `model/policy.ts`);
   * the model then expects the declared behaviour. Default: the contract as written.
   */
  readonly policy?: PolicyDeclaration;
  /**
   * Declares that `call` and the world functions depend only on their arguments and on what the
   * database returns: no clock, no randomness, no state kept in memory from one statement or call
   * to the next. Scheduled mode then runs lanes inline, resuming a paused call by replaying its
   * statements instead of parking a worker thread, which is several times faster. The world
   * functions are synchronous; `call` may be async when every `await` in it settles on the
   * microtask queue alone (a synchronous driver behind async functions). A handler whose call is
   * still pending once that queue is empty (a timer, I/O), or whose replay takes another path
   * (each is checked statement by statement), is moved to worker threads. A paused call unwinds
   * by an exception, so the handler must let errors it does not know propagate: a retry loop that
   * catches everything would spin. A plugin spread from another (`...reference`) inherits this;
   * set it again for its own `call`. Default false.
   */
  readonly replayable?: boolean;
  /** Creates the schema and inserts the fixture's rows. Runs once per template database. */
  setup(db: Connection, fixture: F): void;
  /** The call under test: the operation as `principal`, with raw (possibly invalid) arguments. */
  call(db: Connection, principal: Principal, request: Q): Outcome | Promise<Outcome>;
  /** Moves a target row (an automation, …) to another workspace (a no-op when the id does not exist). */
  move(db: Connection, id: number, workspace: string): void;
  /** Deletes a target row; receipts stay (a no-op when the id does not exist). */
  delete(db: Connection, id: number): void;
  /**
   * Re-creates a deleted id as `row` (a no-op when it exists). Optional. `row` is the operation's
   * fresh row, e.g. `{id, workspace, intervalMinutes: 15, version: 1}` for `set_interval`.
   */
  recreate?(db: Connection, row: Row): void;
  /** Makes every receipt insert fail from now on. */
  failReceipts(db: Connection): void;
  /** Lets receipt inserts succeed again. */
  restoreReceipts(db: Connection): void;
  /**
   * Moves the harness's clock on by `ms` (a `clockAdvance` world event). Required when the
   * policy declares an expiry (`receiptExpiry` or `claimExpiry` in ms), and called only then. A
   * library that reads `Date.now()` must take its time from a clock the harness controls: `harness-clock.ts` keeps
   * one in the database, so it holds on worker threads and in scheduled replay.
   */
  advanceClock?(db: Connection, ms: number): void;
  /** The tables and receipts, in the model's shape (`Snapshot`); order does not matter. */
  snapshot(db: Connection): Snapshot;
}

/**
 * Declares a handler plugin with full type checking; returns it unchanged.
 * @example export default defineHandler({ name: 'mine', setup, call, move, delete: del, failReceipts, restoreReceipts, snapshot });
 */
export function defineHandler<
  F extends Fixture = SetIntervalFixture,
  Q extends CallRequest = SetIntervalRequest,
>(plugin: HandlerPlugin<F, Q>): HandlerPlugin<F, Q> {
  return plugin;
}

/**
 * Declares a plugin for an operation other than `set-interval`: its fixture and requests are
 * typed generically (read rows with `targetRows(fixture, spec)`, arguments by field name).
 * @example export default defineOperationHandler({ name: 'mine', operation: 'adjust-balance', ... });
 */
export function defineOperationHandler(
  plugin: HandlerPlugin<Fixture, CallRequest>,
): HandlerPlugin<Fixture, CallRequest> {
  return plugin;
}

/** The functions every plugin must have, in the order error messages name them. */
export const REQUIRED_FUNCTIONS = [
  'setup',
  'call',
  'move',
  'delete',
  'failReceipts',
  'restoreReceipts',
  'snapshot',
] as const;

/**
 * The operation `plugin` implements, resolved: its own spec (registered by name, so fixtures and
 * case files can name it) or the built-in it names; `set-interval` when it names none.
 */
export function pluginOperation(plugin: Pick<HandlerPlugin, 'operation'>): OperationSpec {
  const declared = plugin.operation;
  if (typeof declared === 'object' && declared !== null) {
    checkOperationSpec(declared);
    registerOperation(declared);
    return declared;
  }
  return operationNamed(declared);
}
