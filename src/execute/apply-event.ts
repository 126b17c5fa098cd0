/**
 * Carries one event out against a real handler: a call through `plugin.call`, a world event
 * through the plugin's world functions, a scope change on the harness's principals. Whatever a
 * plugin throws or returns that is not an outcome becomes `unexpected`.
 */

import { fileURLToPath } from 'node:url';
import { messageOf } from '../errors.ts';
import { type Connection, type HandlerPlugin, pluginOperation } from '../handlers/plugin.ts';
import { type CallEvent, type Event, unsentOutcome } from '../model/events.ts';
import type { Observed } from '../model/outcome.ts';
import { checkSnapshotShape, isOutcome } from '../model/outcome-shape.ts';
import type { Principal, Snapshot } from '../model/world.ts';
import type { Activity, CallWatch } from './call-watch.ts';
import type { Task } from './task.ts';

/** Calls the handler as `principal`; never throws. */
export async function applyCall(
  plugin: HandlerPlugin,
  db: Connection,
  principal: Principal,
  event: CallEvent,
): Promise<Observed> {
  const unsent = unsentOutcome(event);
  if (unsent) return unsent;
  try {
    const returned = plugin.call(db, principal, event.request);
    return observedOf(returned instanceof Promise ? await returned : returned, plugin);
  } catch (thrown) {
    return unexpectedOf(thrown);
  }
}

/**
 * `applyCall` for a call that must not wait: `undefined` when the handler returned a promise
 * (the caller cannot use it then); otherwise what it returned or threw, as `applyCall` has it.
 */
export function applyCallSync(
  plugin: HandlerPlugin,
  db: Connection,
  principal: Principal,
  event: CallEvent,
): Observed | undefined {
  const unsent = unsentOutcome(event);
  if (unsent) return unsent;
  try {
    const returned = plugin.call(db, principal, event.request);
    if (!(returned instanceof Promise)) return observedOf(returned, plugin);
    returned.catch(() => {});
    return undefined;
  } catch (thrown) {
    return unexpectedOf(thrown);
  }
}

/**
 * `applyCall` on this thread under `watch`'s call budget (`yield*` it in a task): the outcome, or
 * `CallHung` thrown when the call runs, or its promise stays unsettled, past the budget.
 */
export function* watchedCall(
  watch: CallWatch,
  activity: Activity,
  plugin: HandlerPlugin,
  db: Connection,
  principal: Principal,
  event: CallEvent,
): Task<Observed> {
  const unsent = unsentOutcome(event);
  if (unsent) return unsent;
  yield* watch.enter(activity);
  let returned: unknown;
  try {
    returned = plugin.call(db, principal, event.request);
  } catch (thrown) {
    watch.leave();
    return unexpectedOf(thrown);
  }
  watch.leave();
  if (!(returned instanceof Promise)) return observedOf(returned, plugin);
  const settled = yield* watch.settle(activity, returned);
  return settled.failed ? unexpectedOf(settled.error) : observedOf(settled.value, plugin);
}

/** `applyWorldEvent` on this thread under `watch`'s call budget (`yield*` it in a task). */
export function* watchedWorldEvent(
  watch: CallWatch,
  activity: Activity,
  plugin: HandlerPlugin,
  db: Connection,
  event: Exclude<Event, CallEvent>,
): Task<void> {
  yield* watch.enter(activity);
  applyWorldEvent(plugin, db, event);
  watch.leave();
}

/**
 * The plugin's snapshot of `db`, checked for shape, under `watch`'s call budget; a hang here is
 * reported one step past the last (`after`), with no event.
 */
export function* watchedSnapshot(
  watch: CallWatch,
  after: number,
  plugin: HandlerPlugin,
  db: Connection,
): Task<Snapshot> {
  yield* watch.enter({ step: after, lane: 0 });
  const snapshot = plugin.snapshot(db);
  watch.leave();
  return checkSnapshotShape(snapshot, plugin.name, pluginOperation(plugin));
}

/** This folder: frames in it are the harness's (the call wrappers, the scheduled connection). */
const HERE = new URL('.', import.meta.url);
/** How a frame names it: a path (CommonJS, source maps) or a `file:` URL (ES modules). */
const HARNESS_DIRS = [fileURLToPath(HERE), HERE.href];

/**
 * What a plugin threw, as `unexpected`: its message, and its stack cut where the harness's frames
 * resume below the plugin's (they are the same for every failure and would bury the handler's).
 * Frames above the plugin's stay: an injected fault is thrown from the scheduled connection.
 */
export function unexpectedOf(thrown: unknown): Observed {
  const message = messageOf(thrown);
  const full = thrown instanceof Error ? thrown.stack : undefined;
  if (typeof full !== 'string' || full === '') return { kind: 'unexpected', message };
  const lines = full.split('\n');
  const harness = (line: string) =>
    /^\s*at\s/.test(line) && HARNESS_DIRS.some((dir) => line.includes(dir));
  const firstPlugin = lines.findIndex((l) => /^\s*at\s/.test(l) && !harness(l));
  const resume = firstPlugin < 0 ? -1 : lines.findIndex((l, i) => i > firstPlugin && harness(l));
  const stack = (resume > 0 ? lines.slice(0, resume) : lines).join('\n');
  return { kind: 'unexpected', message, stack };
}

/** What the handler returned, or `unexpected` when it is not an outcome. */
function observedOf(value: unknown, plugin: HandlerPlugin): Observed {
  if (isOutcome(value, pluginOperation(plugin))) return value;
  return {
    kind: 'unexpected',
    message: `plugin returned a value that is not an outcome: ${safeJson(value)}`,
  };
}

/**
 * Applies a world event to the database (scope changes need no database and are ignored here).
 * Throws what the plugin throws: a world event that fails is a harness or plugin fault, not a finding.
 */
export function applyWorldEvent(
  plugin: HandlerPlugin,
  db: Connection,
  event: Exclude<Event, CallEvent>,
): void {
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
    case 'revoke':
    case 'restore':
      return;
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
