/**
 * No worker thread, database file or temp directory outlives a concurrent check: after a pass,
 * after a failure, after a hung call, after a soak, and after Ctrl-C or a `kill` (a child
 * process, SIGINT or SIGTERM mid-run, exit code 130 or 143). Temp directories are looked for in a TMPDIR of this file's own, so
 * other test files running at the same time cannot confuse the count; threads are counted by the
 * operating system (/proc/self/task), not by our own bookkeeping alone. The one exception, by
 * design: the pool a passing or failing check gives back is kept idle for the next check of the
 * same handler (`warm-pool.ts`); it is counted apart, and gone once destroyed.
 */

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { leftovers, ownTmpdir, startInterruptibleCheck } from '../../../../testing/leftovers.ts';
import { checkHandler } from '../../../api/check-handler.ts';
import { soak } from '../../../api/soak.ts';
import {
  INTERRUPTED_EXIT_CODE,
  pendingInterruptCleanups,
  TERMINATED_EXIT_CODE,
} from '../../runtime/interrupt.ts';
import { destroyIdlePool, idleWorkerThreads } from './warm-pool.ts';
import {
  disposeAfterWorkers,
  liveWorkerThreads,
  startedWorkerPools,
  type WorkerPool,
} from './worker-pool.ts';

const HANG = fileURLToPath(new URL('./fixtures/hang-handler.ts', import.meta.url));

const osThreads = () => readdirSync('/proc/self/task').length;
/**
 * The OS thread count once it reaches `target`, or after 30 s whatever it is then. A terminated
 * worker's thread exits only once the native call it is in returns: one waiting out SQLite's
 * busy timeout on a loaded machine was seen still there after 5 s (8 threads over the baseline,
 * twice in a full suite run at load 7 to 13), though none was left on a quiet one.
 */
async function threadsSettled(target: number): Promise<number> {
  const end = Date.now() + 30_000;
  while (osThreads() !== target && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return osThreads();
}

describe('leftovers after concurrent runs', () => {
  const dir = ownTmpdir('rc-leftovers-');
  let baseline: number;
  beforeAll(async () => {
    // A first check and a first soak start whatever threads Node starts lazily, so the
    // baseline is stable.
    await checkHandler({ mode: 'concurrent', runs: 3 });
    await soak({ clients: 3, durationMs: 50 });
    await destroyIdlePool();
    baseline = osThreads();
  });
  const expectClean = async () => {
    expect(leftovers(dir)).toEqual([]);
    expect(liveWorkerThreads()).toBe(0);
    expect(pendingInterruptCleanups()).toBe(0);
    // At most the one pool kept warm (4 workers by default), and nothing once it is destroyed.
    expect(idleWorkerThreads()).toBeLessThanOrEqual(4);
    await destroyIdlePool();
    expect(idleWorkerThreads()).toBe(0);
    // A terminated worker's OS thread exits after terminate() resolves: wait for it, bounded.
    expect(await threadsSettled(baseline)).toBe(baseline);
  };

  it('leaves nothing after a passing check', async () => {
    let during = 0;
    const r = await checkHandler({
      mode: 'concurrent',
      runs: 20,
      onProgress: () => {
        during = Math.max(during, leftovers(dir).length);
      },
    });
    expect(r.verdict).toBe('passed');
    expect(during).toBe(1); // the check did use this TMPDIR
    await expectClean();
  });

  it('keeps one pool warm for the next check of the same handler, and only for it', async () => {
    await checkHandler({ mode: 'concurrent', runs: 3 });
    expect(idleWorkerThreads()).toBe(4);
    const warm = osThreads();
    const pools = startedWorkerPools();
    await checkHandler({ mode: 'concurrent', runs: 3 });
    expect(startedWorkerPools()).toBe(pools); // the kept pool served the second check
    await checkHandler({ handler: 'check-then-act', mode: 'concurrent', runs: 3 });
    expect(startedWorkerPools()).toBe(pools + 1); // another handler never shares it
    expect(idleWorkerThreads()).toBe(4);
    expect(osThreads()).toBe(warm); // the first handler's pool went when this one was kept
    await expectClean();
  });

  it('leaves nothing after a failing check', async () => {
    // A bug its plain steps show, so the check fails whatever the threads' timing (a race
    // mutant's failure here would depend on how often its lanes happen to overlap).
    const r = await checkHandler({ handler: 'version-before-receipt', mode: 'concurrent' });
    expect(r.verdict).toBe('failed');
    await expectClean();
  });

  it('leaves nothing after a hung call', async () => {
    const r = await checkHandler({
      handler: HANG,
      mode: 'concurrent',
      callTimeoutMs: 300,
      runs: 20,
      // Short sequences: each shrink candidate that still hangs waits out the budget and
      // restarts a worker; shrinking from 4 steps still stops and replaces workers several times.
      stepsMax: 4,
    });
    expect(r.counterexample?.failures[0]?.kind).toBe('hang');
    await expectClean();
  });

  it('leaves nothing after a soak run', async () => {
    const r = await soak({ clients: 3, durationMs: 200 });
    expect(r.counts.calls).toBeGreaterThan(0);
    await expectClean();
  });
});

describe('Ctrl-C or SIGTERM during a concurrent check', () => {
  it("removes a pool's database files only once its workers are gone", async () => {
    // A worker opening a file removed under it, while it is being terminated, aborted the process.
    const events: string[] = [];
    let gone = () => {};
    const pool = {
      destroy: () =>
        new Promise<void>((resolve) => {
          gone = () => {
            events.push('workers gone');
            resolve();
          };
        }),
    } as WorkerPool;
    const disposed = disposeAfterWorkers(pool, () => events.push('files removed'));
    await Promise.resolve();
    expect(events).toEqual([]);
    gone();
    await disposed;
    expect(events).toEqual(['workers gone', 'files removed']);
  });

  it.each([
    ['SIGINT', INTERRUPTED_EXIT_CODE],
    ['SIGTERM', TERMINATED_EXIT_CODE],
  ] as const)('%s: exits with %i and leaves no temp directory', async (signal, code) => {
    const dir = mkdtempSync(join(tmpdir(), 'rc-interrupt-'));
    try {
      const check = await startInterruptibleCheck(dir);
      expect(leftovers(dir)).toHaveLength(1); // mid-run, its directory exists
      expect(await check.stop(signal), check.stderr()).toBe(code);
      expect(leftovers(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
