/**
 * Concurrent mode's workers keep their connection to the shared database from run to run, so a
 * run must get it as a newly opened one: what plugin code left on it (a temporary table, a
 * setting, an attached database) would otherwise reach the next run. One worker, so every run's
 * call meets the connection the call before it used.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, runnerFor } from '../../../../testing/concurrent-runners.ts';
import type { JudgedRunner } from '../../../api/judged-runner.ts';

const FIXTURE = fileURLToPath(
  new URL('../scheduled/fixtures/connection-state.ts', import.meta.url),
);

describe('a concurrent run gets its worker connection as new', () => {
  let runner: JudgedRunner;
  beforeAll(async () => {
    runner = await runnerFor(FIXTURE, { workers: 1 });
  });
  afterAll(() => runner.close());

  it('after a run that left a temporary table, a setting and an attached database', async () => {
    for (let run = 1; run <= 3; run++) {
      const judged = await runner.execute([call('a', 1, 30)]);
      expect(judged.verdict, `run ${run}`).toEqual({ verdict: 'ok' });
    }
  });
});
