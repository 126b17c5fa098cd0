/**
 * Keeps the last concurrent check's worker pool warm for the next check of the same handler.
 *
 * Starting a pool costs far more than a short check runs: each worker registers the TypeScript
 * loader (a loader thread of its own), loads the harness and the plugin, and opens SQLite, about
 * half a CPU second per worker on the 2-core development machine, paid by every check (the bench
 * runs one per round, a test suite one per test). A pool given back is kept, idle, for
 * `IDLE_LIMIT_MS`; a check of the same handler path with the same number of workers takes it
 * instead of starting one. Only one pool is kept, and only for the handler it ran, so no plugin
 * ever shares a worker with another plugin's module state.
 *
 * An idle pool holds no connection and no database (every run releases its own), its threads are
 * unref'd by piscina (they never keep the process alive), and it is destroyed when the limit
 * passes, when another pool is given back, or by `destroyIdlePool` (the bench, before it measures
 * memory-heavy work).
 */
import { createWorkerPool, type WorkerPool } from './worker-pool.ts';

/** How long an idle pool is kept for the next check, in ms. */
export const IDLE_LIMIT_MS = 10_000;

interface IdlePool {
  readonly pool: WorkerPool;
  readonly handlerPath: string;
  readonly timer: NodeJS.Timeout;
}

let idle: IdlePool | undefined;

/** The idle pool if it ran `handlerPath` with `size` workers, else a new pool (cold). */
export function takeWorkerPool(size: number, handlerPath: string): WorkerPool {
  const kept = idle;
  if (kept && kept.pool.size === size && kept.handlerPath === handlerPath) {
    clearTimeout(kept.timer);
    idle = undefined;
    kept.pool.resume();
    return kept.pool;
  }
  return createWorkerPool(size);
}

/**
 * Gives a pool back after a check: kept idle for the next check of `handlerPath`, replacing
 * (and destroying) any pool kept before. A pool whose last task failed to return is destroyed.
 */
export async function giveBackWorkerPool(
  pool: WorkerPool,
  handlerPath: string,
  reusable: boolean,
): Promise<void> {
  if (!reusable) return pool.destroy();
  await destroyIdlePool();
  pool.park();
  const timer = setTimeout(() => void destroyIdlePool(), IDLE_LIMIT_MS);
  timer.unref();
  idle = { pool, handlerPath, timer };
}

/** Destroys the idle pool, if any. */
export async function destroyIdlePool(): Promise<void> {
  const kept = idle;
  if (!kept) return;
  idle = undefined;
  clearTimeout(kept.timer);
  await kept.pool.destroy();
}

/** Worker threads of the idle pool (0 or its size). For leak tests. */
export function idleWorkerThreads(): number {
  return idle?.pool.size ?? 0;
}
