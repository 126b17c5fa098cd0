/**
 * The scheduled-mode workers of one runner, one per lane, started on first use and kept for the
 * runner's life. A lane whose worker was terminated (a crash in `thread` mode, a hung call) gets
 * a fresh one the next time it is needed.
 *
 * Starting a worker costs about a quarter second of CPU (tsx registers itself in every thread),
 * more than a hundred runs. So a runner that closes lends its workers to the next runner of the
 * same handler in this process (`borrowLaneWorkers`/`returnLaneWorkers`): idle, they hold nothing
 * open (their connection is to a database already removed, and they do not keep the process
 * alive), and they are terminated after `IDLE_KEEP_MS` if nobody borrows them.
 *
 * Why not concurrent mode's piscina pool (`concurrent/worker-pool.ts`): a pool hands a task to
 * whichever worker is free and answers asynchronously, while a lane is one worker bound to one
 * connection for a whole step, parked on shared memory at every statement and granted
 * synchronously by a coordinator that never yields to its event loop mid-step. The two
 * protocols (`concurrent/protocol.ts`, `scheduled/protocol.ts`) differ because the hand-offs do.
 */

import { throwIfInterrupted } from '../../../runtime/interrupt.ts';
import type { Lanes } from '../lanes.ts';
import { LaneWorker, type SharedMemory } from './lane-worker.ts';

/** How long a starting worker may take to load the plugin, in ms (tsx in a thread is slow to start). */
export const WORKER_START_MS = 60_000;

/** Tries to start a worker whose thread dies on the way (see `start`). */
const START_ATTEMPTS = 2;

/** Workers by lane, and the shared memory they use. */
export class LaneWorkers implements Lanes {
  readonly shared: SharedMemory;
  /** The principals' write scopes as the workers read them (see `protocol.ts`). */
  readonly scopes: Int32Array;
  private readonly byLane = new Map<number, Promise<LaneWorker>>();
  /** The workers of `byLane` that have started, for a `get` that needs no promise. */
  private readonly ready = new Map<number, LaneWorker>();
  /** Every thread started and not yet terminated, loaded or still starting. */
  private readonly threads = new Set<LaneWorker>();
  /** Bumped by `closeAll`: a start begun before it gives up instead of trying again. */
  private generation = 0;
  /** The run the coordinator is in, stamped on every command (`startRun`). */
  private readonly runs = { current: 0 };

  constructor(
    private readonly handlerPath: string,
    principals: number,
  ) {
    this.shared = {
      doorbell: new SharedArrayBuffer(4),
      scopes: new SharedArrayBuffer(4 * Math.max(1, principals)),
    };
    this.scopes = new Int32Array(this.shared.scopes);
  }

  /** The worker of `lane`: at once when it has started, else started (and loaded) first. */
  get(lane: number): LaneWorker | Promise<LaneWorker> {
    const started = this.ready.get(lane);
    if (started) return started;
    let worker = this.byLane.get(lane);
    if (!worker) {
      const starting = this.start(START_ATTEMPTS);
      worker = starting;
      this.byLane.set(lane, starting);
      starting.then(
        (w) => {
          if (this.byLane.get(lane) === starting) this.ready.set(lane, w);
        },
        () => {
          if (this.byLane.get(lane) === starting) this.byLane.delete(lane);
        },
      );
    }
    return worker;
  }

  /**
   * Starts a worker and waits until it has loaded the plugin. A thread that dies while starting
   * (seen once, under heavy load, with no message) is started again, once; a plugin that fails
   * to load is reported at once, since it would fail again.
   */
  private async start(attempts: number): Promise<LaneWorker> {
    throwIfInterrupted('while starting a lane worker');
    const generation = this.generation;
    const started = new LaneWorker(this.handlerPath, this.shared, this.runs);
    this.threads.add(started);
    try {
      await started.ready(WORKER_START_MS);
      return started;
    } catch (thrown) {
      await this.stop(started);
      if (attempts > 1 && started.died && generation === this.generation)
        return this.start(attempts - 1);
      throw thrown;
    }
  }

  private async stop(worker: LaneWorker): Promise<void> {
    this.threads.delete(worker);
    await worker.terminate();
  }

  /** A run begins: commands from now on carry its number, so workers can tell runs apart. */
  startRun(): void {
    this.runs.current++;
  }

  /** Threads started and not yet terminated. */
  get size(): number {
    return this.threads.size;
  }

  /** Starts lanes `0..count-1` at once, so the first run does not start them one by one. */
  async warm(count: number): Promise<void> {
    await Promise.all(Array.from({ length: count }, async (_, lane) => this.get(lane)));
  }

  /** Terminates the worker of `lane`; the next `get` starts a new one. */
  async kill(lane: number): Promise<void> {
    const worker = this.byLane.get(lane);
    this.byLane.delete(lane);
    this.ready.delete(lane);
    if (worker) await this.stop(await worker);
  }

  /** Lets idle workers keep the process alive (`true`, in use) or not (`false`, pooled). */
  hold(keepAlive: boolean): void {
    for (const w of this.byLane.values()) w.then((x) => x.hold(keepAlive)).catch(() => {});
  }

  /**
   * Terminates every worker, those still starting included (Ctrl-C must not wait for a thread
   * to finish loading tsx). Safe to call twice; a later `get` starts fresh workers.
   */
  async closeAll(): Promise<void> {
    this.generation++;
    const all = [...this.threads];
    this.byLane.clear();
    this.ready.clear();
    await Promise.allSettled(all.map((w) => this.stop(w)));
  }
}

/** How long returned workers wait for the next runner before they are terminated, in ms. */
export const IDLE_KEEP_MS = 10_000;

const idle = new Map<string, { workers: LaneWorkers; timer: NodeJS.Timeout }[]>();

function keyOf(handlerPath: string, principals: number): string {
  return `${principals}\u0000${handlerPath}`;
}

/** Workers for a runner of `handlerPath`: a returned set when there is one, else a new one. */
export function borrowLaneWorkers(handlerPath: string, principals: number): LaneWorkers {
  const found = idle.get(keyOf(handlerPath, principals))?.pop();
  if (!found) return new LaneWorkers(handlerPath, principals);
  clearTimeout(found.timer);
  found.workers.hold(true);
  return found.workers;
}

/** Gives a runner's workers back for the next runner; terminated after `IDLE_KEEP_MS` unused. */
export function returnLaneWorkers(
  workers: LaneWorkers,
  handlerPath: string,
  principals: number,
): void {
  const key = keyOf(handlerPath, principals);
  const list = idle.get(key) ?? [];
  idle.set(key, list);
  workers.hold(false);
  const entry = {
    workers,
    timer: setTimeout(() => {
      list.splice(list.indexOf(entry), 1);
      void workers.closeAll();
    }, IDLE_KEEP_MS).unref(),
  };
  list.push(entry);
}

/**
 * Starts `count` lane workers for `handlerPath` and lends them to the next runner, as a runner
 * that closes would: for a caller about to time scheduled checks on thread lanes (the bench, so
 * that its warm-up spends its CPU on checks rather than on starting threads, a quarter second
 * each). Throws what a worker that cannot load the plugin reports.
 */
export async function startLaneWorkers(
  handlerPath: string,
  principals: number,
  count: number,
): Promise<void> {
  const workers = borrowLaneWorkers(handlerPath, principals);
  try {
    await workers.warm(count);
  } finally {
    returnLaneWorkers(workers, handlerPath, principals);
  }
}

/** Worker threads in returned sets, waiting for the next runner (for tests and leak checks). */
export function idleLaneWorkerThreads(): number {
  return [...idle.values()].flat().reduce((n, entry) => n + entry.workers.size, 0);
}

/**
 * Terminates every returned set now rather than after `IDLE_KEEP_MS`: for a caller that knows no
 * scheduled check of these handlers follows soon (the bench, before it times the checker and the
 * mutants, so that idle lane workers do not count against its peak memory).
 */
export async function closeIdleLaneWorkers(): Promise<void> {
  const entries = [...idle.values()].flat();
  idle.clear();
  for (const entry of entries) clearTimeout(entry.timer);
  await Promise.allSettled(entries.map((entry) => entry.workers.closeAll()));
}
