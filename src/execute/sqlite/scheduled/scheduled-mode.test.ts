/**
 * Scheduled mode on real workers and real SQLite: a lane blocked on the write lock waits without
 * timing and goes on once the lock is free; a crash mid-transaction rolls back and releases the
 * lock, the same whether the connection is closed or the worker thread terminated (WAL); a crash
 * between commit and receipt is caught, the reference survives the same schedule; a lock nothing
 * can release ends in a stall report and SQLITE_BUSY, a handler retrying it forever in a livelock
 * report, never a hang; a schedule repeats exactly (same trace hash); and a schedule from a case
 * file is parsed (a malformed one refused), then replays as the drawn one did.
 */
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type JudgedScheduledRunner, judgedScheduled } from '../../../../testing/judged-runners.ts';
import type { CallEvent, Step } from '../../../model/events.ts';
import { setInterval as setIntervalSpec } from '../../../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../../../model/world.ts';
import type { ScheduledDetail } from '../../../types/execution.ts';
import type { StepSchedule } from '../../../types/schedule.ts';
import { loadPlugin, resolveHandlerPath } from '../../runtime/load-plugin.ts';
import { type ScheduledModeOptions, scheduledRunner } from './scheduled-mode.ts';

const call = (requestId: string, version = 1, minutes = 30, client = 0): CallEvent => ({
  kind: 'call',
  client,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion: version, intervalMinutes: minutes },
});

const runners = new Map<string, Promise<JudgedScheduledRunner>>();
afterAll(async () => {
  await Promise.all([...runners.values()].map(async (r) => (await r).close()));
});

/** One runner per handler and options, shared by the tests (workers start once). */
function runnerFor(
  handler: string,
  options: Partial<ScheduledModeOptions> = {},
): Promise<JudgedScheduledRunner> {
  const key = JSON.stringify([handler, options]);
  let runner = runners.get(key);
  if (!runner) {
    const path = resolveHandlerPath(handler);
    runner = loadPlugin(path).then((plugin) =>
      scheduledRunner(plugin, path, {
        spec: setIntervalSpec,
        fixture: DEFAULT_FIXTURE,
        callTimeoutMs: 10_000,
        workers: 2,
        ...options,
      }).then((r) => judgedScheduled(r)),
    );
    runners.set(key, runner);
  }
  return runner;
}

async function run(runner: JudgedScheduledRunner, steps: Step[], schedule: StepSchedule[]) {
  const r = await runner.executeScheduled(steps, schedule);
  return { ...r, detail: r.detail as ScheduledDetail };
}

describe('scheduled mode', () => {
  it('parks a lane on a held write lock and lets it on once the lock is free', async () => {
    const runner = await runnerFor('reference');
    const steps: Step[] = [{ kind: 'concurrent', events: [call('a'), call('b', 1, 60, 1)] }];
    // Lane 1 starts and takes BEGIN IMMEDIATE, then lane 2 starts and tries it.
    const r = await run(runner, steps, [{ choices: [0, 0, 1, 0] }]);
    expect(r.verdict).toEqual({ verdict: 'ok' });
    expect(r.detail.lanes).toContain('BEGIN IMMEDIATE [blocked]');
    const lane2 = r.detail.entries.filter((e) => e.lane === 1 && e.sql === 'BEGIN IMMEDIATE');
    expect(lane2.map((e) => e.result)).toEqual(['blocked', 'ok']);
  });

  it('a crash mid-transaction rolls back and frees the lock, connection or thread alike (WAL)', async () => {
    // Yield points of a reference call: 0 start, 1 BEGIN, 2–3 SELECTs, 4 UPDATE, 5 INSERT, 6 COMMIT, 7 reply.
    const steps: Step[] = [call('a'), call('a', 1, 30, 0)];
    const schedule: StepSchedule[] = [{ choices: [], crash: { lane: 0, at: 5 } }, { choices: [] }];
    const hashes: string[] = [];
    for (const crashMode of ['connection', 'thread'] as const) {
      const r = await run(await runnerFor('reference', { crashMode }), steps, schedule);
      expect(r.verdict, crashMode).toEqual({ verdict: 'ok' });
      // The retry is fresh: the crashed update never landed, and its lock did not outlive it.
      expect(r.trace.observations[0]?.observed).toMatchObject({ kind: 'ok', replayed: false });
      expect(r.trace.snapshot.receipts).toHaveLength(1);
      expect(r.detail.lanes).toContain('[CRASH] before INSERT INTO receipts');
      hashes.push(r.detail.traceHash);
    }
    expect(hashes[0]).toBe(hashes[1]);
  });

  it('a crash between commit and receipt catches receipt-after-commit; the reference holds', async () => {
    // receipt-after-commit: 0 start, 1 BEGIN, 2–3 SELECTs, 4 UPDATE, 5 COMMIT, 6 INSERT (own statement), 7 reply.
    const steps: Step[] = [call('a'), call('a')];
    const schedule: StepSchedule[] = [{ choices: [], crash: { lane: 0, at: 6 } }];
    const mutant = await run(await runnerFor('receipt-after-commit'), steps, schedule);
    expect(mutant.verdict.verdict).toBe('failed');
    expect(mutant.detail.lanes).toContain('[CRASH] before INSERT INTO receipts');
    const reference = await run(await runnerFor('reference'), steps, schedule);
    expect(reference.verdict).toEqual({ verdict: 'ok' });
  });

  it('a lock nothing can release stalls, and SQLITE_BUSY reaches the handler: no hang', async () => {
    const runner = await runnerFor(fixture('rogue-lock.ts'));
    const started = performance.now();
    const r = await run(runner, [{ kind: 'concurrent', events: [call('rogue')] }], []);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(r.trace.observations[0]?.observed).toMatchObject({ kind: 'unexpected' });
    expect(r.detail.entries.some((e) => e.point === 'stall')).toBe(true);
    expect(r.detail.lanes).toContain('[busy timeout: SQLITE_BUSY]');
  });

  it('a handler retrying that lock forever is stopped as a livelock', async () => {
    const runner = await runnerFor(fixture('rogue-lock.ts'), { grantsMax: 200 });
    const r = await run(runner, [{ kind: 'concurrent', events: [call('rogue-retry')] }], []);
    expect(r.trace.observations[0]?.observed).toMatchObject({
      kind: 'unexpected',
      message: expect.stringContaining('livelock'),
    });
  });

  it('a handler retrying SQLITE_BUSY forever is no livelock while the lane holding the lock can run', async () => {
    // Lane 1 takes the write lock, then the schedule hands over to lane 2 for good: its deferred
    // transaction meets the lock at its UPDATE and starts again, for ever unless lane 1 runs.
    const runner = await runnerFor(fixture('busy-retry.ts'), { grantsMax: 400 });
    const steps: Step[] = [{ kind: 'concurrent', events: [call('r0'), call('r0')] }];
    const r = await run(runner, steps, [{ choices: [0, 0, 0, 0, 1] }]);
    expect(r.detail.lanes).toContain('SQLITE_BUSY');
    expect(r.verdict).toEqual({ verdict: 'ok' });
  });

  it('a lane that sleeps between retries yields: the holder commits, the trace repeats', async () => {
    // As above, but the retrying lane waits on a timer before each retry, at most 50 times
    // (5·(n+1) ms, 6.4 s in all): were it to keep the grants, its retries would outlast the
    // call budget and a correct handler would be reported as a hang.
    const runner = await runnerFor(fixture('busy-backoff.ts'), { callTimeoutMs: 2_000 });
    const steps: Step[] = [{ kind: 'concurrent', events: [call('r0'), call('r0')] }];
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const r = await run(runner, steps, [{ choices: [0, 0, 0, 0, 1] }]);
      expect(r.detail.lanes).toContain('SQLITE_BUSY');
      expect(r.verdict).toEqual({ verdict: 'ok' });
      seen.add(r.detail.traceHash);
    }
    expect(seen.size).toBe(1);
  });

  it('a lane that retries at once gives no turn away: 50 immediate retries fail', async () => {
    const runner = await runnerFor(fixture('busy-bounded.ts'), { callTimeoutMs: 2_000 });
    const steps: Step[] = [{ kind: 'concurrent', events: [call('r0'), call('r0')] }];
    const r = await run(runner, steps, [{ choices: [0, 0, 0, 0, 1] }]);
    expect(r.verdict.verdict).toBe('failed');
    expect(r.trace.observations.map((o) => o.observed.kind)).toContain('unexpected');
  });

  it('the same steps and schedule give the same trace, run after run', async () => {
    const runner = await runnerFor('deferred-transaction');
    const steps: Step[] = [{ kind: 'concurrent', events: [call('r0'), call('r0')] }];
    const schedule: StepSchedule[] = [{ choices: [0, 0, 1, 1, 1] }];
    const seen = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const r = await run(runner, steps, schedule);
      expect(r.verdict.verdict).toBe('failed');
      seen.add(r.detail.traceHash);
    }
    expect(seen.size).toBe(1);
  });
});

function fixture(name: string): string {
  return fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
}

describe('run-ahead', () => {
  it('saves hand-offs, never a decision: the trace is the same with and without it', async () => {
    const ahead = await runnerFor('reference');
    const stepwise = await runnerFor('reference', { runAheadMax: 0 });
    const sequence = { stepsMax: 12, races: true, recreate: true };
    const cases = fc.sample(ahead.caseArbitrary(sequence), { numRuns: 60, seed: 11 });
    for (const c of cases) {
      const a = await ahead.execute(c.steps, c.replay);
      const b = await stepwise.execute(c.steps, c.replay);
      expect((a.detail as ScheduledDetail).traceHash).toBe((b.detail as ScheduledDetail).traceHash);
      expect(a.verdict).toEqual(b.verdict);
    }
  });
});

describe('schedules the runner did not draw', () => {
  it('are parsed: read back from JSON one replays as drawn, a malformed one is refused', async () => {
    const runner = await runnerFor('reference');
    const sequence = { stepsMax: 12, races: true, recreate: true };
    const cases = fc.sample(runner.caseArbitrary(sequence), { numRuns: 20, seed: 5 });
    const hash = (r: { detail?: unknown }) => (r.detail as ScheduledDetail).traceHash;
    for (const c of cases) {
      const drawn = await runner.execute(c.steps, c.replay);
      const read = await runner.execute(c.steps, JSON.parse(JSON.stringify(c.replay)));
      expect(hash(read)).toBe(hash(drawn));
    }
    await expect(
      runner.execute([call('m1')], { schedule: [{ choices: [0, -1] }] }),
    ).rejects.toMatchObject({ code: 'E_BAD_COUNTEREXAMPLE' });
  });
});
