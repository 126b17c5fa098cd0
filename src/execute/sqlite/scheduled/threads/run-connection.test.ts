/**
 * Scheduled mode resets one database in place between runs, and its lanes (the coordinator's
 * connection for plain steps, each worker's for gated ones) stay open across runs. A plugin that
 * is not replayable must still see a connection object of each run's own, or state it keeps per
 * connection object (a wrapped library's instance in a `WeakMap`) would outlive the database it
 * was about, and the check would report the harness's reset as the handler's failure.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkHandler } from '../../../../api/check-handler.ts';
import { closeIdleLaneWorkers } from './lane-workers.ts';

const MEMO = fileURLToPath(
  new URL('../../concurrent/fixtures/per-connection-memo.ts', import.meta.url),
);

describe('a connection object per scheduled run', () => {
  afterAll(() => closeIdleLaneWorkers());

  it('gives a plugin keeping state per connection a fresh object each run, on thread lanes', async () => {
    const r = await checkHandler({ handler: MEMO, mode: 'scheduled', runs: 40, seed: 7 });
    expect(r.counterexample?.failures).toBeUndefined();
    expect(r.verdict).toBe('passed');
  });
});
