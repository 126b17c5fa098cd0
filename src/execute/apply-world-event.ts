/**
 * Carries a world event out against a real handler's database through the plugin's world
 * functions: a move, a delete, a recreate, the receipt store failing or coming back, the clock
 * moving on. Scope changes (revoke, restore) touch only the harness's principals and need no
 * database. Kept apart from the calls (`apply-event.ts`): a world event's failure is a harness or
 * plugin fault, never a finding, so it has no outcome to observe.
 */
import { type Connection, type HandlerPlugin, pluginOperation } from '../handlers/plugin.ts';
import type { CallEvent, Event } from '../model/events.ts';
import type { Activity, CallWatch } from './runtime/call-watch.ts';
import { inPluginCode } from './runtime/contain/handler-output.ts';
import { FRESH_STRETCH, type Task } from './runtime/task.ts';

/**
 * Applies a world event to the database (scope changes need no database and are ignored here).
 * Throws what the plugin throws: a world event that fails is a harness or plugin fault, not a finding.
 */
export function applyWorldEvent(
  plugin: HandlerPlugin,
  db: Connection,
  event: Exclude<Event, CallEvent>,
): void {
  inPluginCode(() => worldEvent(plugin, db, event));
}

function worldEvent(plugin: HandlerPlugin, db: Connection, event: Exclude<Event, CallEvent>): void {
  switch (event.kind) {
    case 'move':
      plugin.move(db, event.resourceId, event.workspace);
      return;
    case 'delete':
      plugin.delete(db, event.resourceId);
      return;
    case 'recreate':
      plugin.recreate?.(db, pluginOperation(plugin).recreated(event.resourceId, event.workspace));
      return;
    case 'storeFail':
      plugin.failReceipts(db);
      return;
    case 'storeRestore':
      plugin.restoreReceipts(db);
      return;
    case 'clockAdvance':
      // `prepare-run.ts` refuses a plugin that declares an expiry without this function.
      plugin.advanceClock?.(db, event.ms);
      return;
    case 'revoke':
    case 'restore':
      return;
  }
}

/** `applyWorldEvent` on this thread under `watch`'s call budget (`yield*` it in a task). */
export function* watchedWorldEvent(
  watch: CallWatch,
  activity: Activity,
  plugin: HandlerPlugin,
  db: Connection,
  event: Exclude<Event, CallEvent>,
): Task<void> {
  if (!watch.tryBegin(activity)) {
    yield FRESH_STRETCH;
    watch.begin(activity);
  }
  applyWorldEvent(plugin, db, event);
  watch.leave();
}
