/**
 * A hung handler call is stopped at the per-call timeout and reported as `E_CALL_TIMEOUT` naming
 * the step, whether it spins or awaits forever, alone or inside a group; the runner then goes on
 * with a fresh worker. Through `checkHandler`, the check rejects with the same code, quickly.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, runnerFor, together } from '../../../testing/concurrent-runners.ts';
import { checkHandler } from '../../api/check-handler.ts';
import type { JudgedRunner } from '../../api/judged-runner.ts';

const HANG = fileURLToPath(new URL('./fixtures/hang-handler.ts', import.meta.url));
const TIMEOUT_MS = 400;

describe('per-call timeout in concurrent mode', () => {
  let runner: JudgedRunner;
  beforeAll(async () => {
    runner = await runnerFor(HANG, { workers: 2, callTimeoutMs: TIMEOUT_MS });
  });
  afterAll(() => runner.close());

  it('stops a busy-waiting call and names its step', async () => {
    const started = performance.now();
    const run = runner.execute([call('r0', 1, 30), call('r1', 2, 30)]);
    await expect(run).rejects.toMatchObject({
      code: 'E_CALL_TIMEOUT',
      message: expect.stringMatching(/^step 2, call by client 0 .*did not return within 400 ms/),
    });
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 5_000);
  });

  it('stops a call awaiting forever inside a group and names its lane', async () => {
    const run = runner.execute([together(call('r0', 1, 30), call('r1', 2, 60))]);
    await expect(run).rejects.toMatchObject({
      code: 'E_CALL_TIMEOUT',
      message: expect.stringMatching(/^step 1 \(lane 2\), call by client 0/),
    });
  });

  it('goes on with a fresh worker after a timeout', async () => {
    const run = await runner.execute([call('r0', 1, 30), call('r0', 1, 30)]);
    expect(run.verdict).toEqual({ verdict: 'ok' });
  });
});

describe('per-call timeout through checkHandler', () => {
  it('rejects with E_CALL_TIMEOUT instead of hanging', async () => {
    const started = performance.now();
    await expect(
      checkHandler({ handler: HANG, mode: 'concurrent', callTimeoutMs: TIMEOUT_MS, runs: 50 }),
    ).rejects.toMatchObject({ code: 'E_CALL_TIMEOUT' });
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
