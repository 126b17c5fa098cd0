/**
 * `replay` of a scheduled PostgreSQL case never claims an exactness it did not have: a run the
 * server ordered (two lanes woken at once off one row, `serverOrdered`) that passes is run again
 * under the same schedule, and the verdict is `reproduced` or `not reproduced`, never `held`,
 * whichever backend wins each race. A case whose schedule decides everything is still `held`
 * after one run. The server is the run's shared one (`testing/global-postgres.ts`).
 */
import { describe, expect, it } from 'vitest';
import {
  ONE_WAITS,
  QUEUED,
  THREE_ON_ONE_ROW,
  TWO_ON_ONE_ROW,
} from '../../testing/server-ordered-case.ts';
import type { Step } from '../model/events.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import { formatReplay } from '../report/format-replay.ts';
import type { CaseFile } from '../types/case-file.ts';
import type { ScheduledDetail } from '../types/execution.ts';
import { SERVER_ORDERED_RUNS } from '../types/replay.ts';
import type { StepSchedule } from '../types/schedule.ts';
import { replayCase } from './replay-case.ts';

const scheduledCase = (steps: Step[], schedule: StepSchedule): CaseFile => ({
  name: 'row-queue',
  description: '',
  handler: 'pg-check-then-act',
  mode: 'scheduled',
  fixture: DEFAULT_FIXTURE,
  steps,
  expectations: [],
  extra: { schedule: [schedule] },
});

describe('replay of a scheduled PostgreSQL case', () => {
  it('a passing run the server ordered is not held: the schedule runs again, up to the bound', async () => {
    const c = scheduledCase(THREE_ON_ONE_ROW, QUEUED);
    const r = await replayCase(c);
    expect(r.route).toBe('repeated schedule');
    expect((r.result.detail as ScheduledDetail).serverOrdered).toBe(true);
    expect(r.schedulesMax).toBe(SERVER_ORDERED_RUNS);
    // Whichever path each run took: a failure stops the runs, else every one of them passed.
    if (r.verdict === 'reproduced') expect(r.result.verdict).toBe('failed');
    else {
      expect(r.verdict).toBe('notReproduced');
      expect(r.schedules).toBe(SERVER_ORDERED_RUNS);
      const text = formatReplay(c, r);
      expect(text).toContain('PostgreSQL chose which of the lanes waiting on one lock went first');
      expect(text).toContain(`${SERVER_ORDERED_RUNS} runs of the case's schedule passed`);
    }
  }, 120_000);

  it('a passing run the schedule decided alone is held after one run', async () => {
    const r = await replayCase(scheduledCase(TWO_ON_ONE_ROW, ONE_WAITS));
    expect(r.verdict).toBe('held');
    expect(r.route).toBe('exact');
    expect((r.result.detail as ScheduledDetail).serverOrdered).toBeUndefined();
  }, 120_000);
});
