/**
 * Times the linearizability checker on a synthetic history away from the caller's heap: in a
 * thread of its own (the bench's 100,000-call figure), or in a child process of its own (the
 * soak-sized figure, whose peak memory is measured apart from the bench's). The history and the
 * search's memo are the largest heap the bench makes; off the main thread they go when the
 * thread or process ends, instead of staying in the main heap until V8 gets round to shrinking
 * it, and the timing does not depend on the state of the main thread's heap.
 */

import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ReceiptcheckError } from '../errors.ts';
import { siblingModuleUrl } from '../sibling-module-url.ts';
import { interruptedError, interruption, onInterrupt } from './runtime/interrupt.ts';

/** What to generate and check. */
export interface CheckerJob {
  readonly entries: number;
  readonly clients: number;
  readonly seed: number;
  /** Distinct request ids per principal (see `SyntheticTraffic`); default the generator's 256. */
  readonly requestIdPool?: number;
  /** The check's wall-clock budget (see `LinearizabilityOptions`); default the checker's. */
  readonly timeLimitMs?: number;
}

/** One timed check: the check's seconds, generation's, the verdict, and the maxRSS it ran at. */
export interface CheckerTiming {
  readonly seconds: number;
  readonly generateSeconds: number;
  readonly verdict: string;
  /** The thread's process (a thread) or the child's own (a child process), in MB. */
  readonly maxRssMb: number;
}

/** What the worker or child posts back. */
export type CheckerReply = CheckerTiming | { readonly error: string };

const ENTRY = fileURLToPath(new URL('./workers/ts-worker-entry.mjs', import.meta.url));
const MODULE = siblingModuleUrl('./workers/checker-worker.ts', import.meta.url).href;

/** Runs one timed check in a new worker thread; rejects with `E_WORKER` if it fails. */
export function timeCheckerInThread(job: CheckerJob): Promise<CheckerTiming> {
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
      settle(resolve, reject, reply, `checker thread exited with code ${code}`);
      untrack();
    });
  });
}

/**
 * The child's V8 flags. A ceiling on the old generation of 1.5 GB, three times what a
 * 1,000,000-call soak check ever holds live (the history ~300 MB, with the final state ~425 MB):
 * it never forces a collection the check would not have had, but below 2 GB V8 grows its heap by
 * at most about 1.8 times the live size after each full collection instead of 4 times, so the
 * search's short-lived model states are collected before the heap is a gigabyte (1M calls from 16
 * clients: maxRSS 1044-1100 -> 921 MB, check CPU within noise). `receiptcheck soak` gets the same
 * from `node --max-old-space-size=1536` or `NODE_OPTIONS`.
 */
export const CHECKER_CHILD_FLAGS: readonly string[] = ['--max-old-space-size=1536'];

/**
 * Runs one timed check in a new child process (`node` on the same entry, none of the parent's
 * flags, only `CHECKER_CHILD_FLAGS`), so that its maxRSS is its own; rejects with `E_WORKER` if
 * it fails.
 */
export function timeCheckerInChild(job: CheckerJob): Promise<CheckerTiming> {
  return new Promise((resolve, reject) => {
    const child = fork(ENTRY, [MODULE, JSON.stringify(job)], {
      execArgv: [...CHECKER_CHILD_FLAGS],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const untrack = onInterrupt(() => {
      child.kill('SIGKILL');
    });
    let reply: CheckerReply | undefined;
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    child.once('message', (message) => {
      reply = message as CheckerReply;
    });
    child.once('error', (error) =>
      reject(new ReceiptcheckError('E_WORKER', `checker process failed: ${error.message}`)),
    );
    child.once('exit', (code, signal) => {
      const why = `checker process exited with ${signal ?? `code ${code}`}${stderr ? `: ${stderr.trim()}` : ''}`;
      settle(resolve, reject, reply, why);
      untrack();
    });
  });
}

function settle(
  resolve: (timing: CheckerTiming) => void,
  reject: (error: Error) => void,
  reply: CheckerReply | undefined,
  exited: string,
): void {
  const stopped = interruption();
  if (stopped) reject(interruptedError(stopped, 'while timing the checker'));
  else if (reply && 'seconds' in reply) resolve(reply);
  else
    reject(
      new ReceiptcheckError(
        'E_WORKER',
        reply ? `checker failed: ${reply.error}` : `${exited} before replying`,
      ),
    );
}
