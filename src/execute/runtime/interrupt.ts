/**
 * Ctrl-C (and `kill`, a CI job cancelled, `timeout`) stops every mode promptly, without
 * leftovers and without a verdict. While any work is registered here (a runner, a pool, a CLI
 * command), this process handles SIGINT and SIGTERM itself; with nothing registered the
 * listeners are removed again, so a program embedding the API keeps Node's default (or its own).
 *
 * On the first signal:
 * - `interruption()` is set for good, and `whenInterrupted()` resolves: exploring
 *   (`api/explore.ts`) and shrinking (`api/stop-on-interrupt.ts`) start no further run, and
 *   every later check or case run throws `InterruptedError` at its start;
 * - every registered cleanup runs at once (terminate workers, remove temp directories), so work
 *   in flight on other threads stops now rather than at its next step;
 * - the work winds down on its own: checks throw `InterruptedError`, the CLI prints
 *   "interrupted" and unregisters last, and the last unregistration exits the process with
 *   128 + the signal's number (130 for SIGINT, 143 for SIGTERM), as a shell reports a process a
 *   signal ended. Exiting fires the `exit` hooks of `databases.ts` and `shared-database.ts`, which
 *   remove any temp directory still there;
 * - if that has not happened within `INTERRUPT_GRACE_MS` (a cleanup that hangs, work that does
 *   not check in), the process exits anyway with the same code;
 * - an `InterruptedError` that reaches the top of a program embedding the API unhandled (a
 *   `checkHandler` it awaits without `catch`) waits for that exit instead of ending the process
 *   at once with Node's exit code 1, which would cut the cleanups short (a service's databases
 *   left behind) and report a crash for a Ctrl-C.
 * A second signal exits at once.
 *
 * Signals reach JavaScript only when the event loop turns. A loop of synchronous runs (sequential
 * mode, scheduled mode with inline lanes) never lets it, so the loops yield a turn every
 * `YIELD_EVERY_MS` (`interruptPoint`, `interruptTurn`). A call running
 * synchronously on this thread holds the signal until it returns or the call budget stops it
 * (`call-watch.ts`).
 */
import { inspect } from 'node:util';
import {
  InterruptedError,
  isReceiptcheckError,
  SIGNAL_EXIT_CODES,
  type StopSignal,
} from '../../errors.ts';
import { exitProcess } from './contain/escapes.ts';
import { ownWrite } from './contain/handler-output.ts';
import type { Task } from './task.ts';

/** How long the work may take to wind down after a signal before the process exits anyway, in ms. */
export const INTERRUPT_GRACE_MS = 800;

/** The exit code after an interrupt (128 + SIGINT). */
export const INTERRUPTED_EXIT_CODE = SIGNAL_EXIT_CODES.SIGINT;

/** The exit code after SIGTERM (128 + 15). */
export const TERMINATED_EXIT_CODE = SIGNAL_EXIT_CODES.SIGTERM;

/** How often a loop of promises lets the event loop turn, so a signal can be seen, in ms. */
export const YIELD_EVERY_MS = 25;

/** The signal that stopped this process's work, and the code it exits with. */
export interface Interruption {
  readonly signal: StopSignal;
  readonly exitCode: number;
}

const cleanups = new Set<() => Promise<void> | void>();
let interrupted: Interruption | undefined;
let reported = false;
let resolveInterrupted: (i: Interruption) => void = () => {};
const whenSignalled = new Promise<Interruption>((resolve) => {
  resolveInterrupted = resolve;
});
let lastTurn = performance.now();

const listeners = {
  SIGINT: () => handleSignal('SIGINT'),
  SIGTERM: () => handleSignal('SIGTERM'),
} as const;
let listening = false;

/**
 * Registers live work whose `cleanup` must run on SIGINT or SIGTERM (destroy worker pools,
 * remove temp directories; a no-op for work that owns nothing but must not be cut off); returns
 * the function that unregisters it (call it once the resource is gone). Idempotent.
 */
export function onInterrupt(cleanup: () => Promise<void> | void): () => void {
  const entry = () => cleanup();
  cleanups.add(entry);
  listen();
  let done = false;
  return () => {
    if (done) return;
    done = true;
    cleanups.delete(entry);
    if (cleanups.size > 0) return;
    if (interrupted) exitNow(interrupted.exitCode);
    else unlisten();
  };
}

/** The signal that interrupted this process, if one did. */
export function interruption(): Interruption | undefined {
  return interrupted;
}

/** Resolves when the process is interrupted (never, if it is not). */
export function whenInterrupted(): Promise<Interruption> {
  return whenSignalled;
}

/** Throws `InterruptedError` once the process is interrupted; `what` says what was cut short. */
export function throwIfInterrupted(what?: string): void {
  if (interrupted) throw interruptedError(interrupted, what);
}

/** The error for an interruption, saying what it cut short. */
export function interruptedError(i: Interruption, what?: string): InterruptedError {
  return new InterruptedError(
    i.signal,
    `interrupted by ${i.signal}${what ? ` ${what}` : ''}; stopped without a verdict`,
  );
}

/**
 * Lets the event loop turn if it has not for `YIELD_EVERY_MS` (so a pending signal is handled),
 * then throws `InterruptedError` if one was. Cheap enough to await between any two runs.
 */
export async function interruptPoint(what?: string): Promise<void> {
  if (performance.now() - lastTurn >= YIELD_EVERY_MS) {
    await new Promise((resolve) => setImmediate(resolve));
    lastTurn = performance.now();
  }
  throwIfInterrupted(what);
}

/**
 * `interruptPoint` inside a task (`yield*` it), letting the event loop turn every `everyMs`: the
 * turn ends the task's stretch, so a loop that wants long stretches asks for fewer turns.
 */
export function* interruptTurn(everyMs = YIELD_EVERY_MS): Task<void> {
  if (performance.now() - lastTurn >= everyMs) {
    yield new Promise((resolve) => setImmediate(resolve));
    lastTurn = performance.now();
  }
  throwIfInterrupted();
}

/** Notes that the interruption was reported to the user, so a forced exit does not say it again. */
export function noteInterruptReported(): void {
  reported = true;
}

/** How many cleanups are registered: what a Ctrl-C right now would have to undo. For tests. */
export function pendingInterruptCleanups(): number {
  return cleanups.size;
}

function listen(): void {
  if (listening) return;
  listening = true;
  for (const [signal, listener] of Object.entries(listeners)) process.on(signal, listener);
}

function unlisten(): void {
  if (!listening) return;
  listening = false;
  for (const [signal, listener] of Object.entries(listeners)) process.off(signal, listener);
}

function handleSignal(signal: StopSignal): void {
  if (interrupted) exitNow(SIGNAL_EXIT_CODES[signal]);
  const i: Interruption = { signal, exitCode: SIGNAL_EXIT_CODES[signal] };
  interrupted = i;
  resolveInterrupted(i);
  process.on('uncaughtException', awaitExitOnInterrupted);
  for (const cleanup of [...cleanups]) {
    void (async () => {
      try {
        await cleanup();
      } catch {
        // Exiting anyway; the exit hooks remove what a failed cleanup left.
      }
    })();
  }
  // Not unref'd: with the work cut off, this timer may be what keeps the process alive until exit.
  setTimeout(() => exitNow(i.exitCode), INTERRUPT_GRACE_MS);
}

/**
 * After a signal: an uncaught `InterruptedError` (of any copy of receiptcheck; a top-level await's
 * rejection arrives here too) is the work winding down, and the exit already under way
 * (`INTERRUPT_GRACE_MS` at the latest) ends the process with the signal's code. Anything else
 * uncaught ends it as Node would, with code 1.
 */
function awaitExitOnInterrupted(reason: unknown): void {
  if (isReceiptcheckError(reason) && reason.code === 'E_INTERRUPTED') return;
  ownWrite('stderr', `${inspect(reason)}\n`);
  exitProcess(1);
}

function exitNow(code: number): never {
  if (!reported && interrupted) {
    reported = true;
    ownWrite('stderr', `receiptcheck: ${interruptedError(interrupted).message}\n`);
  }
  exitProcess(code);
}
