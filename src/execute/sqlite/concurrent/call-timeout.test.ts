/**
 * A hung handler call is stopped at the per-call budget and judged a hang, naming its step and
 * lane, whether it spins or awaits forever, alone or inside a group; the runner then goes on with
 * a fresh worker. That the hang is a counterexample shrunk to the one call, saved and in JUnit,
 * is `../../hangs.test.ts`'s, through the command, for both kinds of hang in this mode.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, runnerFor, together } from '../../../../testing/concurrent-runners.ts';
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
