/**
 * Carries one call out against a real handler, through `plugin.call`, and takes its snapshot
 * (world events are `apply-world-event.ts`'s). Whatever a plugin throws or returns that is not an
 * outcome becomes `unexpected`, and so does what its code lets escape while a call runs
 * (`contain/`); plugin code's prints are kept, not shown.
 */

import { fileURLToPath } from 'node:url';
import { errorClassOf, messageOf, ReceiptcheckError } from '../errors.ts';
import { type Connection, type HandlerPlugin, pluginOperation } from '../handlers/plugin.ts';
import { type CallEvent, unsentOutcome } from '../model/events.ts';
import type { Observed, Outcome } from '../model/outcome.ts';
import { checkSnapshotShape, isOutcome } from '../model/outcome-shape.ts';
import type { Principal, Snapshot } from '../model/world.ts';
import type { Activity, CallWatch, Settled } from './runtime/call-watch.ts';
import { ESCAPED, type Escape, takeEscape, untilEscape } from './runtime/contain/escapes.ts';
import {
  inPluginCode,
  pluginCodeReturned,
  pluginCodeRunning,
  pluginCodeStarts,
} from './runtime/contain/handler-output.ts';
import { FRESH_STRETCH, type Task } from './runtime/task.ts';

/**
 * What `applyCall` needs of a plugin, whatever its engine: its name, operation and `call` on the
 * engine's connection `D` (a better-sqlite3 connection, or a PostgreSQL `PgConnection`).
 */
export type CallingPlugin<D> = Pick<HandlerPlugin, 'name' | 'operation'> & {
  // biome-ignore lint/suspicious/noExplicitAny: each operation's plugin types its own requests
  call(db: D, principal: Principal, request: any): Outcome | Promise<Outcome>;
};

/**
 * Calls the handler as `principal`. An escape (`contain/escapes.ts`) while it runs, or one still
 * pending, is its outcome: `unexpected`, saying what escaped. An escape while the call's promise
 * is pending ends the wait (an Express 4 route that rejected never answers), and `abandoned` is
 * called: the handler's code may still run, and the caller should take `db` from it. Throws only
 * `E_HANDLER_ESCAPE`, for an escape left behind by an earlier call (`charged`).
 */
export async function applyCall<D = Connection>(
  plugin: CallingPlugin<D>,
  db: D,
  principal: Principal,
  event: CallEvent,
  abandoned?: () => void,
): Promise<Observed> {
  const unsent = unsentOutcome(event);
  if (unsent) return unsent;
  let observed: Observed;
  const done = pluginCodeRunning();
  try {
    const returned = plugin.call(db, principal, event.request);
    const value = returned instanceof Promise ? await untilEscape(returned) : returned;
    if (value === ESCAPED) abandoned?.();
    observed = value === ESCAPED ? escapedCall() : observedOf(value, plugin);
  } catch (thrown) {
    observed = unexpectedOf(thrown);
  } finally {
    done();
  }
  return charged(observed, plugin);
}

/**
 * `applyCall` without waiting, for a caller that settles the promise itself (an inline lane, which
 * runs the microtask queue at once: `sqlite/scheduled/inline/`): what the handler returned or
 * threw, as `applyCall` has it, or the promise it returned, to be turned into an outcome with
 * `settledOutcome` once settled. A rejection of that promise is handled here, so one the caller
 * never looks at is no unhandled rejection.
 */
export function startCall(
  plugin: HandlerPlugin,
  db: Connection,
  principal: Principal,
  event: CallEvent,
): Observed | Promise<unknown> {
  const unsent = unsentOutcome(event);
  if (unsent) return unsent;
  try {
    const returned = inPluginCode(() => plugin.call(db, principal, event.request));
    if (!(returned instanceof Promise)) return charged(observedOf(returned, plugin), plugin);
    returned.catch(() => {});
    return returned;
  } catch (thrown) {
    return charged(unexpectedOf(thrown), plugin);
  }
}

/** What a call's settled promise (`startCall`, `beginCall`) came to, as an outcome. */
export function settledOutcome(plugin: HandlerPlugin, settled: Settled): Observed {
  if (settled.failed) return charged(unexpectedOf(settled.error), plugin);
  return charged(
    settled.value === ESCAPED ? escapedCall() : observedOf(settled.value, plugin),
    plugin,
  );
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
  if (!watch.tryBegin(activity)) {
    yield FRESH_STRETCH;
    watch.begin(activity);
  }
  const begun = beginCall(watch, plugin, db, principal, event);
  return begun instanceof Promise ? yield* settleCall(watch, activity, plugin, begun) : begun;
}

/**
 * `watchedCall`'s synchronous part, for a loop that spells it out (sequential mode, for every
 * call, without a generator per call): `watch.tryBegin` (or `begin`) has recorded `activity`;
 * this runs the handler as `principal` and returns its outcome, or the promise it returned, to be
 * waited for with `settleCall`. `watch.enter` and `inPluginCode` are spelled out too: a generator
 * and a closure per call were a good part of what a sequential run allocated.
 */
export function beginCall(
  watch: CallWatch,
  plugin: HandlerPlugin,
  db: Connection,
  principal: Principal,
  event: CallEvent,
): Observed | Promise<unknown> {
  let returned: unknown;
  let threw = false;
  let error: unknown;
  pluginCodeStarts();
  try {
    returned = plugin.call(db, principal, event.request);
  } catch (thrown) {
    threw = true;
    error = thrown;
  } finally {
    pluginCodeReturned();
  }
  watch.leave();
  if (threw) return charged(unexpectedOf(error), plugin);
  if (returned instanceof Promise) return returned;
  return charged(observedOf(returned, plugin), plugin);
}

/** Waits, under the budget, for the promise a call returned (`beginCall`): its outcome. */
export function* settleCall(
  watch: CallWatch,
  activity: Activity,
  plugin: HandlerPlugin,
  returned: Promise<unknown>,
): Task<Observed> {
  const done = pluginCodeRunning();
  let settled: Settled;
  try {
    settled = yield* watch.settle(activity, untilEscape(returned));
  } finally {
    done();
  }
  return settledOutcome(plugin, settled);
}

/**
 * `observed`, unless an escape is pending: then the call is charged with it. An escape seen when
 * no plugin code ran (`late`) was left behind by some earlier call, maybe of another run: blaming
 * this one would make a counterexample that does not replay, so it is a labelled error instead.
 */
function charged(observed: Observed, plugin: Pick<HandlerPlugin, 'name'>): Observed {
  const pending = takeEscape();
  if (pending?.late) throw leftBehindError(plugin.name, pending);
  return pending ? escapedOf(pending) : observed;
}

/** The error for an escape that surfaced after the call that left it had returned. */
export function leftBehindError(handler: string, left: Escape): ReceiptcheckError {
  const what = left.what === 'process.exit' ? 'a call of process.exit' : `an ${left.what}`;
  return new ReceiptcheckError(
    'E_HANDLER_ESCAPE',
    `handler "${handler}" left behind ${what} (${messageOf(left.thrown)}) that surfaced only after its call had returned, so no call can be blamed: await that work, or catch its errors, inside the call`,
  );
}

/** A call whose wait an escape cut short: the escape, taken (`charged` finds it pending). */
function escapedCall(): Observed {
  return { kind: 'unexpected', message: 'an escape cut the call short' };
}

/**
 * An escape as the outcome of the call it is charged to: what escaped, how (`unhandled rejection:
 * TypeError: boom`), or the call of `process.exit` (whose `ExitCalled` is the harness's own class).
 */
function escapedOf(escaped: Escape): Observed {
  const { errorClass, ...cut } = unexpectedOf(escaped.thrown);
  if (escaped.what === 'process.exit') return cut;
  const what = errorClass === undefined ? cut.message : `${errorClass}: ${cut.message}`;
  return { ...cut, message: `${escaped.what}: ${what}` };
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
  const snapshot = inPluginCode(() => plugin.snapshot(db));
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
export function unexpectedOf(thrown: unknown): Extract<Observed, { kind: 'unexpected' }> {
  const message = messageOf(thrown);
  const errorClass = errorClassOf(thrown);
  const named = errorClass === undefined ? {} : { errorClass };
  const full = thrown instanceof Error ? thrown.stack : undefined;
  if (typeof full !== 'string' || full === '') return { kind: 'unexpected', message, ...named };
  const lines = full.split('\n');
  const harness = (line: string) =>
    /^\s*at\s/.test(line) && HARNESS_DIRS.some((dir) => line.includes(dir));
  const firstPlugin = lines.findIndex((l) => /^\s*at\s/.test(l) && !harness(l));
  const resume = firstPlugin < 0 ? -1 : lines.findIndex((l, i) => i > firstPlugin && harness(l));
  const stack = (resume > 0 ? lines.slice(0, resume) : lines).join('\n');
  return { kind: 'unexpected', message, ...named, stack };
}

/** What the handler returned, or `unexpected` when it is not an outcome. */
function observedOf(value: unknown, plugin: Pick<HandlerPlugin, 'operation'>): Observed {
  if (isOutcome(value, pluginOperation(plugin))) return value;
  return {
    kind: 'unexpected',
    message: `plugin returned a value that is not an outcome: ${safeJson(value)}`,
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
