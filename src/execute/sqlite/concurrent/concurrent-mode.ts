/**
 * The concurrent mode runner: a pool of `workers` threads, each with its own connection to the
 * runner's one database file, reset to the template before each sequence; each run returns its history and trace for the linearizability
 * judge (`check/check-concurrent-run.ts`). Create once per check, `close()` when done.
 */
import { ReceiptcheckError } from '../../../errors.ts';
import type { HandlerPlugin } from '../../../handlers/plugin.ts';
import type { Step } from '../../../model/events.ts';
import type { OperationSpec } from '../../../model/operation.ts';
import type { Fixture } from '../../../model/world.ts';
import type { ConcurrentExecution } from '../../../types/execution.ts';
import type { ModeRunner } from '../../mode-runner.ts';
import { onInterrupt } from '../../runtime/interrupt.ts';
import { tempRoot } from '../../runtime/temp-dirs.ts';
import { DatabaseFiles } from '../databases.ts';
import { SharedDatabase } from '../shared-database.ts';
import { BROADCAST_LIMIT_MS, releaseEverywhere, runConcurrent } from './run-concurrent.ts';
import { giveBackWorkerPool, takeWorkerPool } from './warm-pool.ts';
import { disposeAfterWorkers, type WorkerPool } from './worker-pool.ts';

/** What concurrent mode needs from the resolved options. */
export interface ConcurrentModeOptions {
  readonly fixture: Fixture;
  /** The operation the run checks, as `prepareRun` resolved it. */
  readonly spec: OperationSpec;
  /** Worker threads, each with its own connection; groups larger than this run in waves. */
  readonly workers: number;
  /** A call (or world event) running longer is stopped and reported as `E_CALL_TIMEOUT`. */
  readonly callTimeoutMs: number;
}

/**
 * Starts the pool, builds the template database and loads the plugin in every worker. Throws a
 * `ReceiptcheckError` (after cleaning up) when a worker cannot load the plugin.
 */
export async function concurrentRunner(
  plugin: HandlerPlugin,
  handlerPath: string,
  options: ConcurrentModeOptions,
): Promise<ModeRunner> {
  const template = new DatabaseFiles(plugin, options.fixture);
  let database: SharedDatabase;
  try {
    database = new SharedDatabase(template.templatePath, tempRoot(true), 'concurrent');
  } finally {
    template.dispose();
  }
  // The last check's pool when it ran this handler: its workers are already started and loaded.
  const pool = takeWorkerPool(options.workers, handlerPath);
  const untrack = onInterrupt(() => disposeAfterWorkers(pool, () => database.dispose()));
  let reusable = false;
  let runs = 0;
  const close = async () => {
    try {
      // A pool kept for the next check holds no connection (`warm-pool.ts`).
      if (reusable) await releaseEverywhere(pool, database.path);
      await giveBackWorkerPool(pool, handlerPath, reusable);
    } finally {
      database.dispose();
      untrack();
    }
  };
  try {
    // A pool kept warm has loaded this handler already; only a replaced worker needs warming.
    if (pool.cold) await warm(pool, handlerPath);
  } catch (thrown) {
    await close();
    throw thrown;
  }
  const ctx = { pool, database: () => database, plugin, handlerPath, ...options };
  return {
    async execute(steps: readonly Step[]): Promise<ConcurrentExecution> {
      if (pool.cold) await warm(pool, handlerPath);
      reusable = false;
      const execution = await runConcurrent(ctx, steps, runs++);
      // A stopped worker may have died holding the file's lock: the next run gets another file.
      if (execution.hang) database = database.replace();
      // Kept for the next check only when every worker finished its run and none was stopped.
      reusable = execution.hang === undefined;
      return execution;
    },
    close,
  };
}

/** Loads the plugin in every worker, so no timed call pays for a cold start. */
export async function warm(pool: WorkerPool, handlerPath: string): Promise<void> {
  const replies = await pool.broadcast(
    (gate) => ({ type: 'warm', handlerPath, gate, limitMs: BROADCAST_LIMIT_MS }),
    BROADCAST_LIMIT_MS,
  );
  for (const r of replies) {
    if (r.type === 'failed') throw ReceiptcheckError.fromData(r.error);
    if (r.type === 'stopped')
      throw new ReceiptcheckError(
        'E_WORKER',
        `a worker did not load handler ${handlerPath} within ${r.afterMs} ms`,
      );
  }
  pool.markWarm();
}
