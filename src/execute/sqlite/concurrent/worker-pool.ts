/**
 * The thread pool of concurrent mode and soak runs: piscina, with exactly `size` workers kept
 * alive and one task per worker at a time, each worker running `concurrent-worker.ts` through
 * `ts-worker-entry.mjs` (so TypeScript plugins load inside workers, from the CLI and from vitest).
 * This is the only file that creates a pool.
 *
 * Every task runs under a deadline: when it passes, the task is aborted, which makes piscina
 * terminate the worker running it (the only way to stop a hung synchronous call) and start a
 * fresh one. A live pool is registered for Ctrl-C cleanup until it is destroyed; once the process
 * is interrupted, `run` throws `InterruptedError` instead of starting or reporting a task.
 */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { messageOf } from '../../../errors.ts';
import { siblingModuleUrl } from '../../../sibling-module-url.ts';
import { keepOutput } from '../../runtime/contain/handler-output.ts';
import { onInterrupt, throwIfInterrupted } from '../../runtime/interrupt.ts';
import { createGate } from './gate.ts';
import type { ConcurrentWorkerData, GateRef, WorkerReply, WorkerTask } from './protocol.ts';

/** How long a broadcast task may take beyond its own limit before it is aborted, in ms. */
const ABORT_SLACK_MS = 1_000;

/** A worker's reply, or `stopped`: the deadline passed and the worker was terminated. */
export type PoolReply = WorkerReply | { readonly type: 'stopped'; readonly afterMs: number };

/** A pool of concurrent-mode workers. */
export interface WorkerPool {
  /** Number of worker threads. */
  readonly size: number;
  /**
   * Runs one task; resolves to the worker's reply. After `timeoutMs` (counted from now, queueing
   * included) the worker is terminated and the reply is `stopped`; the caller names the step in
   * its own message. A worker that died is a `failed` reply with code `E_WORKER`. Rejects only
   * with `InterruptedError`, once the process is interrupted. `later`, when given, is asked each
   * time the deadline passes: a positive number of ms puts it off by that much (each item of a
   * concurrent run's script has a budget of its own, `run-concurrent.ts`).
   */
  run(task: WorkerTask, timeoutMs: number, later?: () => number): Promise<PoolReply>;
  /** Runs `make(gate)` once on every worker (the gate keeps them apart); all must be idle. */
  broadcast(make: (gate: GateRef) => WorkerTask, limitMs: number): Promise<PoolReply[]>;
  /** Whether a worker was terminated since the last `markWarm()` (its replacement is cold). */
  readonly cold: boolean;
  markWarm(): void;
  /**
   * Marks the pool idle between checks (`warm-pool.ts`): it no longer counts as live and no
   * longer waits for Ctrl-C cleanup (piscina unrefs idle workers, so they never hold the process).
   */
  park(): void;
  /** Takes a parked pool back into use. */
  resume(): void;
  /** Terminates every worker. Safe to call twice. */
  destroy(): Promise<void>;
}

/**
 * On Ctrl-C, removes a pool's database files only once its workers are gone: a worker that opens
 * a file removed under it gets an error from better-sqlite3, and an error thrown in a worker being
 * terminated aborts the whole process ("FATAL ERROR: v8::ToLocalChecked Empty MaybeLocal", seen
 * in a concurrent check stopped by SIGINT on a loaded machine) instead of the exit with 130.
 */
export async function disposeAfterWorkers(pool: WorkerPool, dispose: () => void): Promise<void> {
  try {
    await pool.destroy();
  } finally {
    dispose();
  }
}

let live = 0;
let started = 0;

/** Pools started so far in this process. For tests of `warm-pool.ts`'s reuse. */
export function startedWorkerPools(): number {
  return started;
}

/** Worker threads of pools in use (not destroyed, not parked), across the process. For leak tests. */
export function liveWorkerThreads(): number {
  return live;
}

/** Starts a pool of `size` workers. */
export function createWorkerPool(size: number): WorkerPool {
  const workerData: ConcurrentWorkerData = {
    tsEntry: siblingModuleUrl('../../workers/concurrent-worker.ts', import.meta.url).href,
  };
  const piscina = new Piscina<WorkerTask, WorkerReply>({
    filename: fileURLToPath(new URL('../../workers/ts-worker-entry.mjs', import.meta.url)),
    workerData,
    minThreads: size,
    maxThreads: size,
    concurrentTasksPerWorker: 1,
    // A worker goes back to its event loop between tasks ('sync' waits in a loop that never does),
    // so Node reports there a rejection a handler left behind, and it is charged to a call
    // (`contain/escapes.ts`) instead of staying unseen. Measured: no slower on concurrent runs.
    atomics: 'async',
    idleTimeout: Number.POSITIVE_INFINITY,
  });
  // Worker errors outside any task (a crash while idle) surface as the next task's failure.
  piscina.on('error', () => {});
  live += size;
  started++;
  let cold = true;
  let parked = false;
  let destroyed: Promise<void> | undefined;
  let untrack = onInterrupt(() => pool.destroy());

  const run = async (
    task: WorkerTask,
    timeoutMs: number,
    later?: () => number,
  ): Promise<PoolReply> => {
    throwIfInterrupted();
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const arm = (ms: number) => {
      timer = setTimeout(() => {
        const more = later?.() ?? 0;
        if (more > 0) arm(more);
        else abort.abort();
      }, ms);
    };
    arm(timeoutMs);
    let reply: PoolReply;
    try {
      reply = await piscina.run(task, { signal: abort.signal });
      // What the plugin printed belongs to the run in progress here.
      if (reply.output) keepOutput(reply.output);
    } catch (thrown) {
      if (abort.signal.aborted) cold = true;
      reply = abort.signal.aborted
        ? { type: 'stopped', afterMs: timeoutMs }
        : {
            type: 'failed',
            // Exceptions, rejections and process.exit are contained (`contain/`): this is
            // something else (process.kill, process.abort, a native crash).
            error: {
              code: 'E_WORKER',
              message: `the worker thread running it ended (${messageOf(thrown)})`,
            },
          };
    } finally {
      clearTimeout(timer);
    }
    // Ctrl-C destroys the pool under running tasks: their failures are not findings.
    throwIfInterrupted();
    return reply;
  };

  const pool: WorkerPool = {
    size,
    run,
    broadcast(make, limitMs) {
      const gate = createGate(size);
      return Promise.all(
        Array.from({ length: size }, () => run(make(gate), limitMs + ABORT_SLACK_MS)),
      );
    },
    get cold() {
      return cold;
    },
    markWarm() {
      cold = false;
    },
    park() {
      if (parked || destroyed) return;
      parked = true;
      untrack();
      live -= size;
    },
    resume() {
      if (!parked || destroyed) return;
      parked = false;
      untrack = onInterrupt(() => pool.destroy());
      live += size;
    },
    destroy() {
      destroyed ??= (async () => {
        const wasParked = parked;
        parked = false;
        if (!wasParked) untrack();
        try {
          await piscina.destroy();
        } finally {
          if (!wasParked) live -= size;
        }
      })();
      return destroyed;
    },
  };
  return pool;
}
