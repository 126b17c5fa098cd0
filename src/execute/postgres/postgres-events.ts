/**
 * One event against a PostgreSQL plugin, under the call budget: a call on a lane's connection
 * (through `applyCall`, so what a plugin throws or returns that is not an outcome becomes
 * `unexpected`, as on SQLite), a world event or the snapshot on the harness connection. Every
 * plugin function is async here; one that does not settle within the budget (blocked on a lock,
 * waiting on nothing) is a hang, and its backend is ended by the runner.
 */
import { isReceiptcheckError, messageOf, ReceiptcheckError } from '../../errors.ts';
import { pluginOperation } from '../../handlers/plugin.ts';
import type { PgConnection, PostgresHandlerPlugin } from '../../handlers/postgres/plugin.ts';
import type { CallEvent, Event } from '../../model/events.ts';
import type { Observed } from '../../model/outcome.ts';
import { checkSnapshotShape } from '../../model/outcome-shape.ts';
import type { Fixture, Principal, Snapshot } from '../../model/world.ts';
import { applyCall } from '../apply-event.ts';
import { inPluginCode } from '../runtime/contain/handler-output.ts';

/** What came of waiting on a budget: the value, or that it did not settle in time. */
export type Budgeted<T> =
  | { readonly settled: true; readonly value: T }
  | { readonly settled: false };

/** `promise`'s value, or `{settled: false}` after `limitMs`; a rejection rejects. */
export async function withinBudget<T>(promise: Promise<T>, limitMs: number): Promise<Budgeted<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Budgeted<T>>((resolve) => {
    timer = setTimeout(() => resolve({ settled: false }), limitMs);
  });
  try {
    return await Promise.race([promise.then((value) => ({ settled: true, value }) as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The plugin's `setup` on `db`; throws `E_HANDLER_SETUP` naming the plugin when it fails. */
export async function pgSetup(
  plugin: PostgresHandlerPlugin,
  db: PgConnection,
  fixture: Fixture,
): Promise<void> {
  try {
    await plugin.setup(db, fixture);
  } catch (thrown) {
    throw new ReceiptcheckError(
      'E_HANDLER_SETUP',
      `handler "${plugin.name}": setup failed on PostgreSQL: ${messageOf(thrown)}`,
      { cause: thrown },
    );
  }
}

/** The call on `db` as `principal`: its outcome, as `applyCall` makes it. */
export function pgCall(
  plugin: PostgresHandlerPlugin,
  db: PgConnection,
  principal: Principal,
  event: CallEvent,
): Promise<Observed> {
  return applyCall(plugin, db, principal, event);
}

/**
 * A world event through the plugin's functions on `db` (scope changes need no database). Throws
 * `E_WORKER` naming the event when the plugin does: a world event that fails is a harness or
 * plugin fault, not a finding.
 */
export async function pgWorldEvent(
  plugin: PostgresHandlerPlugin,
  db: PgConnection,
  event: Exclude<Event, CallEvent>,
): Promise<void> {
  try {
    await inPluginCode(() => worldEvent(plugin, db, event));
  } catch (thrown) {
    // A described service's statement that failed is named by its field already.
    if (isReceiptcheckError(thrown) && thrown.code === 'E_SERVICE_DESCRIPTION') throw thrown;
    throw new ReceiptcheckError(
      'E_WORKER',
      `handler "${plugin.name}": the world event ${event.kind} threw: ${messageOf(thrown)}`,
      { cause: thrown },
    );
  }
}

/**
 * Applies a world event through the plugin's own function, unwrapped (no budget, no error
 * mapping): scope changes are the caller's, so they do nothing here. Scheduled mode gates it.
 */
export async function worldEvent(
  plugin: PostgresHandlerPlugin,
  db: PgConnection,
  event: Exclude<Event, CallEvent>,
): Promise<void> {
  switch (event.kind) {
    case 'move':
      return plugin.move(db, event.resourceId, event.workspace);
    case 'delete':
      return plugin.delete(db, event.resourceId);
    case 'recreate':
      return plugin.recreate?.(
        db,
        pluginOperation(plugin).recreated(event.resourceId, event.workspace),
      );
    case 'storeFail':
      return plugin.failReceipts(db);
    case 'storeRestore':
      return plugin.restoreReceipts(db);
    case 'clockAdvance':
      return plugin.advanceClock?.(db, event.ms);
    case 'revoke':
    case 'restore':
      return;
  }
}

/** The plugin's snapshot of `db`, checked for shape. */
export async function pgSnapshot(
  plugin: PostgresHandlerPlugin,
  db: PgConnection,
): Promise<Snapshot> {
  const snapshot = await inPluginCode(() => plugin.snapshot(db));
  return checkSnapshotShape(snapshot, plugin.name, pluginOperation(plugin));
}
