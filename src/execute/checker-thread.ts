/**
 * Times the linearizability checker on a synthetic history in a thread of its own. The history
 * and the search's memo are the largest heap the bench makes; in a worker they go when it ends,
 * instead of staying in the main heap until V8 gets round to shrinking it, and the timing does
 * not depend on the state of the main thread's heap.
 */

import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ReceiptcheckError } from '../errors.ts';
import { siblingModuleUrl } from '../sibling-module-url.ts';
import { interruptedError, interruption, onInterrupt } from './interrupt.ts';

/** What to generate and check. */
export interface CheckerJob {
  readonly entries: number;
  readonly clients: number;
  readonly seed: number;
}

/** The check's time in seconds and its verdict, or why the worker could not run it. */
export type CheckerReply =
  | { readonly seconds: number; readonly verdict: string }
  | { readonly error: string };

const ENTRY = fileURLToPath(new URL('./workers/ts-worker-entry.mjs', import.meta.url));
const MODULE = siblingModuleUrl('./workers/checker-worker.ts', import.meta.url).href;

/** Runs one timed check in a new worker thread; rejects with `E_WORKER` if it fails. */
export function timeCheckerInThread(
  job: CheckerJob,
): Promise<{ seconds: number; verdict: string }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(ENTRY, { workerData: { ...job, tsEntry: MODULE } });
    const untrack = onInterrupt(() => worker.terminate().then(() => {}));
    let reply: CheckerReply | undefined;
    worker.once('message', (message: CheckerReply) => {
      reply = message;
    });
    worker.once('error', (error) =>
      reject(new ReceiptcheckError('E_WORKER', `checker thread failed: ${error.message}`)),
    );
    worker.once('exit', (code) => {
      const stopped = interruption();
      if (stopped) reject(interruptedError(stopped, 'while timing the checker'));
      else if (reply && 'seconds' in reply) resolve(reply);
      else
        reject(
          new ReceiptcheckError(
            'E_WORKER',
            `checker thread ${reply ? `failed: ${reply.error}` : `exited with code ${code} before replying`}`,
          ),
        );
      untrack();
    });
  });
}
