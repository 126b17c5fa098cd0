/**
 * Ctrl-C (and `kill`, a CI job cancelled, `timeout`) without leftovers. While anything is
 * registered here, one SIGINT and one SIGTERM handler (installed once per process, on first use)
 * run every registered cleanup (destroy worker pools, remove temp directories), wait for them at
 * most `INTERRUPT_CLEANUP_MS`, then exit with 128 + the signal's number (130 for SIGINT, 143 for
 * SIGTERM), as a shell reports a process a signal ended. Exiting also fires the `exit` hook of
 * `databases.ts`, which removes any temp directory of any mode still alive. A second signal while
 * cleaning up exits at once.
 *
 * Why here and not only in the CLI: the API runs pools too, and Node's default behaviour on
 * either signal kills the process without running `exit` hooks, leaving temp directories behind.
 * A call stuck in a synchronous loop on the main thread keeps any handler from running: then
 * only the operating system ends the process, and its directories stay.
 *
 * Once interrupted, concurrent work stops at its next step (`haltIfInterrupted`): it waits
 * forever rather than failing. A failure would make fast-check start shrinking, a tight loop of
 * promises that fail at once and starve the event loop, so the cleanups and the exit would wait
 * for the whole shrink.
 */

/** The longest the handler waits for cleanups before exiting anyway, in ms. */
export const INTERRUPT_CLEANUP_MS = 3_000;

/** The exit code after an interrupt (128 + SIGINT). */
export const INTERRUPTED_EXIT_CODE = 130;

/** The exit code after SIGTERM (128 + 15). */
export const TERMINATED_EXIT_CODE = 143;

const cleanups = new Set<() => Promise<void> | void>();
let installed = false;
let interrupted = false;

/**
 * Registers `cleanup` to run on Ctrl-C or SIGTERM; returns the function that unregisters it
 * (call it once the resource is gone). Installs the handlers the first time; idempotent.
 */
export function onInterrupt(cleanup: () => Promise<void> | void): () => void {
  if (!installed) {
    installed = true;
    process.on('SIGINT', () => handleInterrupt(INTERRUPTED_EXIT_CODE));
    process.on('SIGTERM', () => handleInterrupt(TERMINATED_EXIT_CODE));
  }
  cleanups.add(cleanup);
  return () => {
    cleanups.delete(cleanup);
  };
}

const never = new Promise<never>(() => {});

/**
 * Resolves at once normally; after an interrupt, never (the process exits meanwhile). Await it
 * before starting any piece of concurrent work.
 */
export function haltIfInterrupted(): Promise<void> {
  return interrupted ? never : Promise.resolve();
}

/** How many cleanups are registered: what a Ctrl-C right now would have to undo. For tests. */
export function pendingInterruptCleanups(): number {
  return cleanups.size;
}

function handleInterrupt(code: number): void {
  if (interrupted) process.exit(code);
  interrupted = true;
  const all = [...cleanups].map(async (cleanup) => {
    try {
      await cleanup();
    } catch {
      // Exiting anyway; the exit hook removes what a failed cleanup left.
    }
  });
  // Not unref'd: with the work halted, this timer may be what keeps the process alive until exit.
  const timer = new Promise((resolve) => setTimeout(resolve, INTERRUPT_CLEANUP_MS));
  void Promise.race([Promise.all(all), timer]).finally(() => process.exit(code));
}
