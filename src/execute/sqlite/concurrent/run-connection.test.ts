/**
 * Concurrent mode keeps each worker's connection across runs and resets the file in place; a
 * plugin that is not replayable must still see a connection object of each run's own, or state
 * it keeps per connection (a wrapped library's instance) would outlive the database it was about.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkHandler } from '../../../api/check-handler.ts';
import { destroyIdlePool } from './warm-pool.ts';

const MEMO = fileURLToPath(new URL('./fixtures/per-connection-memo.ts', import.meta.url));

describe('a connection object per run', () => {
  afterAll(() => destroyIdlePool());

  it('gives a plugin keeping state per connection a fresh object each run', async () => {
    const r = await checkHandler({ handler: MEMO, mode: 'concurrent', runs: 40, seed: 7 });
    expect(r.counterexample?.failures).toBeUndefined();
    expect(r.verdict).toBe('passed');
  });
});
