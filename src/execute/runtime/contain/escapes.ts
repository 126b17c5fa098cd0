/**
 * What plugin code does outside the value or exception its call returns, made into data instead
 * of the end of the thread: an exception thrown from a callback (`uncaughtException`), a promise
 * rejection nobody handles (`unhandledRejection`: Express 4 routes leave them), and a call of
 * `process.exit`. While installed on a thread, listeners keep Node from ending it (on a worker
 * thread, from ending the worker), and `process.exit` throws `ExitCalled` instead of exiting.
 *
 * An escape is pending until `takeEscape` charges it to a call (`apply-event.ts`): the call in
 * progress when it happened, whose wait `untilEscape` cuts short, or else the next call to end on
 * this thread. Node reports an unhandled rejection only when the event loop turns, so one that a
 * synchronous handler leaves behind is seen at the next turn (between tasks on a worker; on the
 * main thread, when a run waits, every `EXPLORE_TURN_MS`, or at the end of a check), when no
 * plugin code runs: it is `late`, and the call that takes it stops the check with a labelled
 * error rather than take the blame.
 *
 * Limits: code that exits the process another way (`process.reallyExit`, `process.kill`,
 * `process.abort`, a native crash) is out of reach: on a worker thread that is a labelled
 * worker error, on the main thread the end of the process.
 */

import { inPluginCodeNow } from './handler-output.ts';

/** One thing plugin code did outside its call's answer. */
export interface Escape {
  readonly what: 'uncaught exception' | 'unhandled rejection' | 'process.exit';
  readonly thrown: unknown;
  /** Seen while no plugin code ran: left behind by an earlier call, charged to a later one. */
  readonly late: boolean;
}

/** What `process.exit(code)` throws while escapes are trapped. */
export class ExitCalled extends Error {
  constructor(readonly code: unknown) {
    super(`the handler called process.exit(${code === undefined ? '' : String(code)})`);
    this.name = 'ExitCalled';
  }
}

/** The most escapes kept pending; beyond that they add nothing to the counterexample. */
const PENDING_MAX = 8;

/** `process.exit` as Node has it, for receiptcheck's own exits. */
const realExit = process.exit.bind(process) as (code?: number) => never;

let installs = 0;
const pending: Escape[] = [];
const disregarded: ((thrown: unknown) => boolean)[] = [];
const waiters = new Set<() => void>();

/** Ends the process: receiptcheck's own exit, past the trap. */
export function exitProcess(code: number): never {
  return realExit(code);
}

/** Starts trapping escapes on this thread; returns what stops it. */
export function trapEscapes(): () => void {
  if (installs++ === 0) {
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUnhandled);
    process.exit = trappedExit as typeof process.exit;
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--installs === 0) {
      process.off('uncaughtException', onUncaught);
      process.off('unhandledRejection', onUnhandled);
      process.exit = realExit as typeof process.exit;
    }
  };
}

/**
 * Never charges what `is` recognises: the harness's own signals, thrown into code it already gave
 * up on (a scheduled crash's, into a handler still running after its connection died).
 */
export function disregardEscapes(is: (thrown: unknown) => boolean): void {
  disregarded.push(is);
}

/** The oldest pending escape, now charged to the caller's call; undefined when there is none. */
export function takeEscape(): Escape | undefined {
  return pending.shift();
}

/** Marker `untilEscape` resolves to when an escape cut the wait short. */
export const ESCAPED: unique symbol = Symbol('receiptcheck.escaped');

/**
 * `promise`, or `ESCAPED` as soon as an escape happens while it is pending (an escape already
 * pending does not count: it is taken first). Leaves nothing registered once either comes.
 */
export function untilEscape<T>(promise: Promise<T>): Promise<T | typeof ESCAPED> {
  return new Promise((resolve, reject) => {
    const wake = () => resolve(ESCAPED);
    waiters.add(wake);
    promise.then(
      (value) => {
        waiters.delete(wake);
        resolve(value);
      },
      (error: unknown) => {
        waiters.delete(wake);
        reject(error);
      },
    );
  });
}

function record(what: Escape['what'], thrown: unknown): void {
  if (disregarded.some((is) => is(thrown))) return;
  if (pending.length < PENDING_MAX) pending.push({ what, thrown, late: !inPluginCodeNow() });
  for (const wake of [...waiters]) wake();
  waiters.clear();
}

// An `ExitCalled` that escapes was recorded when `process.exit` was called.
function onUncaught(thrown: unknown): void {
  if (!(thrown instanceof ExitCalled)) record('uncaught exception', thrown);
}

function onUnhandled(reason: unknown): void {
  if (!(reason instanceof ExitCalled)) record('unhandled rejection', reason);
}

/** Recorded as it is called, so a handler that catches what it throws is still charged with it. */
function trappedExit(code?: unknown): never {
  const thrown = new ExitCalled(code ?? process.exitCode);
  record('process.exit', thrown);
  throw thrown;
}
