/**
 * The article's two concurrent cases, run for real on separate workers and connections against
 * the reference handler, with the outcomes checked directly (not only through the checker).
 * Whatever the threads' timing, a correct handler must give these outcomes, so nothing here
 * depends on how often the calls really overlap; catching race bugs is the scheduler's job
 * (properties/race-mutants.test.ts), where no timing decides anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, runnerFor, together } from '../../../../testing/concurrent-runners.ts';
import type { JudgedRunner } from '../../../api/judged-runner.ts';
import type { Observed } from '../../../model/outcome.ts';
import type { SetIntervalSnapshot } from '../../../model/world.ts';
import type { ConcurrentDetail } from '../../../types/execution.ts';

const TRIES = 12;

describe('concurrent mode on the reference handler', () => {
  let runner: JudgedRunner;
  beforeAll(async () => {
    runner = await runnerFor('reference');
  });
  afterAll(() => runner.close());

  it('identical duplicates released together: one fresh result and one replay of it', async () => {
    for (let i = 0; i < TRIES; i++) {
      const run = await runner.execute([together(call('r1', 1, 30), call('r1', 1, 30))]);
      const outcomes = run.trace.observations.map((o) => o.observed);
      const result = { id: 1, intervalMinutes: 30, version: 2 };
      expect(outcomes).toHaveLength(2);
      expect(outcomes).toContainEqual({ kind: 'ok', replayed: false, result });
      expect(outcomes).toContainEqual({ kind: 'ok', replayed: true, result });
      expect(
        (run.trace.snapshot as SetIntervalSnapshot).automations.find((a) => a.id === 1),
      ).toMatchObject({
        intervalMinutes: 30,
        version: 2,
      });
      expect(run.trace.snapshot.receipts).toHaveLength(1);
      expect(run.verdict).toEqual({ verdict: 'ok' });
    }
  });

  it('mismatched duplicates released together: one winner and one keyReuse', async () => {
    for (let i = 0; i < TRIES; i++) {
      const run = await runner.execute([together(call('r1', 1, 30), call('r1', 1, 60))]);
      const outcomes = run.trace.observations.map((o) => o.observed);
      const winner = outcomes.find((o): o is Extract<Observed, { kind: 'ok' }> => o.kind === 'ok');
      expect(winner?.replayed).toBe(false);
      expect(outcomes.filter((o) => o.kind === 'keyReuse')).toHaveLength(1);
      const row = (run.trace.snapshot as SetIntervalSnapshot).automations.find((a) => a.id === 1);
      expect(row).toMatchObject({ version: 2, intervalMinutes: winner?.result.intervalMinutes });
      expect(run.trace.snapshot.receipts).toHaveLength(1);
      expect(run.verdict).toEqual({ verdict: 'ok' });
    }
  });

  it('records a history with an interval per call on one clock', async () => {
    const run = await runner.execute([
      call('r0', 2, 5),
      together(call('r1', 1, 30), call('r1', 1, 30)),
    ]);
    const { history, places, order } = run.detail as ConcurrentDetail;
    expect(places).toEqual([
      { step: 0, lane: 0 },
      { step: 1, lane: 0 },
      { step: 1, lane: 1 },
    ]);
    const [first, a, b] = history;
    for (const e of history) expect(e.completedAt).toBeGreaterThanOrEqual(e.invokedAt);
    // The plain step finished before the group was released.
    expect(first?.completedAt).toBeLessThan(Math.min(a?.invokedAt ?? 0, b?.invokedAt ?? 0));
    expect(order).toHaveLength(3);
  });

  it('keeps a lost response out of the history’s outcomes but in the trace', async () => {
    const run = await runner.execute([
      call('r1', 1, 30, { delivery: 'lostResponse' }),
      call('r1', 1, 30),
    ]);
    const { history } = run.detail as ConcurrentDetail;
    expect(history[0]?.completedAt).toBeUndefined();
    expect(history[0]?.observed).toBeUndefined();
    expect(run.trace.observations[0]?.observed).toMatchObject({ kind: 'ok', replayed: false });
    expect(run.trace.observations[1]?.observed).toMatchObject({ kind: 'ok', replayed: true });
    expect(run.verdict).toEqual({ verdict: 'ok' });
  });
});
