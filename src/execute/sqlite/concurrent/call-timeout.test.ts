/**
 * A hung handler call is stopped at the per-call budget and judged a hang, naming its step and
 * lane, whether it spins or awaits forever, alone or inside a group; the runner then goes on with
 * a fresh worker. Through `checkHandler`, the hang is a counterexample, shrunk to the one call.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, runnerFor, together } from '../../../../testing/concurrent-runners.ts';
import { checkHandler } from '../../../api/check-handler.ts';
import type { JudgedRunner } from '../../../api/judged-runner.ts';

const HANG = fileURLToPath(new URL('./fixtures/hang-handler.ts', import.meta.url));
const TIMEOUT_MS = 400;

describe('per-call budget in concurrent mode', () => {
  let runner: JudgedRunner;
  beforeAll(async () => {
    runner = await runnerFor(HANG, { workers: 2, callTimeoutMs: TIMEOUT_MS });
  });
  afterAll(() => runner.close());

  it('stops a busy-waiting call and names its step', async () => {
    const started = performance.now();
    const run = await runner.execute([call('r0', 1, 30), call('r1', 2, 30)]);
    expect(run.verdict).toEqual({
      verdict: 'failed',
      failures: [expect.objectContaining({ kind: 'hang', step: 1, lane: 0, how: 'thread' })],
    });
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 10_000);
  });

  it('keeps the steps finished before a hang among the same plain steps', async () => {
    // Steps 0 to 2 are one phase on one worker; its reply died with it, its journal did not.
    const run = await runner.execute([call('r0', 1, 30), call('r1', 3, 30), call('r2', 2, 30)]);
    expect(run.verdict).toEqual({
      verdict: 'failed',
      failures: [expect.objectContaining({ kind: 'hang', step: 2, lane: 0 })],
    });
    const history = run.detail?.mode === 'concurrent' ? run.detail.history : [];
    expect(history.map((e) => [e.event, e.observed?.kind])).toEqual([
      [call('r0', 1, 30), 'ok'],
      [call('r1', 3, 30), expect.any(String)],
    ]);
  });

  it('stops a call awaiting forever inside a group and names its lane', async () => {
    const run = await runner.execute([together(call('r0', 1, 30), call('r1', 2, 60))]);
    expect(run.verdict).toEqual({
      verdict: 'failed',
      failures: [expect.objectContaining({ kind: 'hang', step: 0, lane: 1, limitMs: TIMEOUT_MS })],
    });
  });

  it('goes on with a fresh worker after a hang', async () => {
    const run = await runner.execute([call('r0', 1, 30), call('r0', 1, 30)]);
    expect(run.verdict).toEqual({ verdict: 'ok' });
  });
});

describe('per-call budget through checkHandler', () => {
  it('reports the hang as a counterexample, shrunk to the hanging call', async () => {
    const r = await checkHandler({
      handler: HANG,
      mode: 'concurrent',
      callTimeoutMs: TIMEOUT_MS,
      runs: 50,
      // Short sequences: every shrink candidate that still hangs waits out the budget and starts
      // a fresh worker, and from 4 steps the shrink still has to find the one call.
      stepsMax: 4,
    });
    expect(r.verdict).toBe('failed');
    const cx = r.counterexample;
    expect(cx?.failures).toEqual([expect.objectContaining({ kind: 'hang', how: 'thread' })]);
    expect(cx?.steps).toHaveLength(1);
  });
});
