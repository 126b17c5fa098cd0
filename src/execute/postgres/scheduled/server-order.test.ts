/**
 * A scheduled PostgreSQL run says when the server, not the schedule, chose an order: when a lane
 * lets go of a row two or more other lanes wait on (its COMMIT, or a crash), the server wakes
 * them and which goes first is a race between their backends. A run where three lanes queue on
 * one row is marked `serverOrdered` whichever backend wins; a run where only one lane waits, or
 * none, or where the waiters queue for an advisory lock (granted in queue order), is not. The server is the run's shared one (`testing/global-postgres.ts`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  IN_TURN,
  KEY_QUEUED,
  ONE_WAITS,
  QUEUED,
  THREE_ON_ONE_KEY,
  THREE_ON_ONE_ROW,
  TWO_ON_ONE_ROW,
} from '../../../../testing/server-ordered-case.ts';
import { type JudgedRunner, judgedRunner } from '../../../api/judged-runner.ts';
import checkThenAct from '../../../handlers/operations/set-interval/postgres/mutants/check-then-act.ts';
import reference from '../../../handlers/operations/set-interval/postgres/set-interval-pg-reference.ts';
import type { PostgresHandlerPlugin } from '../../../handlers/postgres/plugin.ts';
import type { Step } from '../../../model/events.ts';
import { setInterval as setIntervalSpec } from '../../../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../../../model/world.ts';
import type { ScheduledDetail } from '../../../types/execution.ts';
import type { StepSchedule } from '../../../types/schedule.ts';
import { type PgScheduledRunner, postgresScheduledRunner } from './scheduled-mode.ts';

const opened: PgScheduledRunner[] = [];
const runners = new Map<string, Promise<JudgedRunner>>();
afterAll(async () => {
  for (const r of opened) await r.close();
}, 60_000);

/** One runner per handler, shared by the tests. */
function runnerFor(plugin: PostgresHandlerPlugin): Promise<JudgedRunner> {
  let runner = runners.get(plugin.name);
  if (!runner) {
    runner = postgresScheduledRunner(plugin, {
      spec: setIntervalSpec,
      fixture: DEFAULT_FIXTURE,
      callTimeoutMs: 20_000,
    }).then((raw) => {
      opened.push(raw);
      return judgedRunner(raw, DEFAULT_FIXTURE, setIntervalSpec);
    });
    runners.set(plugin.name, runner);
  }
  return runner;
}

/** The run's detail, and the lanes whose statements were seen waiting, in the trace's order. */
async function run(steps: Step[], schedule: StepSchedule, plugin = checkThenAct) {
  const r = await (await runnerFor(plugin)).execute(steps, { schedule: [schedule] });
  const detail = r.detail as ScheduledDetail;
  const blocked = detail.entries.filter((e) => e.result === 'blocked').map((e) => e.lane);
  return { detail, blocked };
}

describe('a scheduled PostgreSQL run the server ordered says so', () => {
  // Lane 3 waits behind lane 2 on the row's tuple lock (`pg_blocking_pids` names lane 2 alone),
  // so the queue is seen through the wait-for graph, not only who waits on lane 1 directly. After
  // the wake-up the loser waits again on the winner: the trace may show a third wait.
  it('three lanes queued on one row, let go by a COMMIT: marked, whichever waiter won', async () => {
    const r = await run(THREE_ON_ONE_ROW, QUEUED);
    expect(r.blocked.slice(0, 2)).toEqual([1, 2]);
    expect(r.detail.serverOrdered).toBe(true);
  }, 60_000);

  it('the same queue let go by a crash of the holder: marked', async () => {
    const r = await run(THREE_ON_ONE_ROW, { ...QUEUED, crash: { lane: 0, at: 5 } });
    expect(r.blocked.slice(0, 2)).toEqual([1, 2]);
    expect(r.detail.entries.find((e) => e.grant === 'crash')?.lane).toBe(0);
    expect(r.detail.serverOrdered).toBe(true);
  }, 60_000);

  it('one lane waiting, or none: not marked (the schedule decided everything)', async () => {
    const oneWaits = await run(TWO_ON_ONE_ROW, ONE_WAITS);
    expect(oneWaits.blocked).toEqual([1]);
    expect(oneWaits.detail.serverOrdered).toBeUndefined();
    // Three lanes, one waiting at a time: lane 3 reaches the row after lane 1 committed.
    const inTurn = await run(THREE_ON_ONE_ROW, IN_TURN);
    expect(inTurn.blocked).toEqual([1]);
    expect(inTurn.detail.serverOrdered).toBeUndefined();
    const laneOrder = await run(THREE_ON_ONE_ROW, { choices: [] });
    expect(laneOrder.blocked).toEqual([]);
    expect(laneOrder.detail.serverOrdered).toBeUndefined();
  }, 60_000);

  it('two lanes queued on an advisory lock: not marked (the lock manager hands it on in queue order)', async () => {
    const r = await run(THREE_ON_ONE_KEY, KEY_QUEUED, reference);
    expect(r.blocked.slice(0, 2)).toEqual([1, 2]);
    expect(r.detail.serverOrdered).toBeUndefined();
  }, 60_000);
});
