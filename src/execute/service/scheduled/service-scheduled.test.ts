/**
 * Scheduled mode for a service on PostgreSQL through the proxy, with a Node `pg` service in its
 * own process (`examples/pg-service`): the correct service holds for every case a
 * few seeds draw (crashes included), and a lane waiting on its key lock is seen blocked; the
 * planted check-then-act race is killed, by a hand-written schedule and by the random search, and
 * its counterexample replays to the same trace; a run where two lanes queued on one row wake at
 * once says the server chose between them (`serverOrdered`). Nothing here waits on time: every hand-off is a
 * statement held at the proxy or a condition the server reports.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type JudgedRunner, judgedRunner } from '../../../api/judged-runner.ts';
import type { CallEvent, Step } from '../../../model/events.ts';
import { setInterval as setIntervalSpec } from '../../../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../../../model/world.ts';
import type { ScheduledDetail } from '../../../types/execution.ts';
import type { StepSchedule } from '../../../types/schedule.ts';
import type { PgScheduledRunner } from '../../postgres/scheduled/scheduled-mode.ts';
import { servicePids } from '../service-process.ts';
import { setIntervalService } from './fixtures/set-interval-service.ts';
import { pgServiceScheduledRunner } from './service-scheduled-mode.ts';

/** A first try of request `a`: version 1 to 30 minutes, as client 1. */
const tryA: CallEvent = {
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  request: { requestId: 'a', automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
};

type Version = 'correct' | 'race' | 'hang';
const opened = new Map<Version, Promise<{ raw: PgScheduledRunner; judged: JudgedRunner }>>();

/** One runner per service version, shared by the tests; the hanging one has a short budget. */
function runnerFor(race: boolean | 'hang') {
  const version: Version = race === 'hang' ? 'hang' : race ? 'race' : 'correct';
  let runner = opened.get(version);
  if (!runner) {
    runner = pgServiceScheduledRunner(setIntervalService(version), {
      fixture: DEFAULT_FIXTURE,
      spec: setIntervalSpec,
      callTimeoutMs: version === 'hang' ? 1_500 : 20_000,
    }).then((raw) => ({ raw, judged: judgedRunner(raw, DEFAULT_FIXTURE, setIntervalSpec) }));
    opened.set(version, runner);
  }
  return runner;
}

afterAll(async () => {
  for (const r of opened.values()) await (await r).raw.close();
  expect(servicePids()).toEqual([]);
}, 60_000);

async function run(race: boolean | 'hang', steps: Step[], schedule: StepSchedule[]) {
  const r = await (await runnerFor(race)).judged.execute(steps, { schedule });
  return { ...r, detail: r.detail as ScheduledDetail };
}

/** One line per trace entry: who, where, what, how it ended. */
const lines = (d: ScheduledDetail) =>
  d.entries.map((e) => `${e.lane + 1} ${e.grant} ${e.point} ${e.sql ?? ''} -> ${e.result ?? ''}`);

const twoFirstTries: Step[] = [{ kind: 'concurrent', events: [tryA, tryA] }];

/** Small cases: a few steps, races on. */
const SMALL = { stepsMax: 4, races: true, recreate: false };

describe('scheduled mode for a service on PostgreSQL', () => {
  it('sees a lane wait on the key lock in the service, and lets it on once the lock is free', async () => {
    // Lane 1 takes BEGIN and its key lock, then lane 2 runs BEGIN and asks for the same lock.
    const r = await run(false, twoFirstTries, [{ choices: [0, 0, 1, 0] }]);
    expect(lines(r.detail)).toContain(
      '2 run statement SELECT pg_advisory_xact_lock(hashtext($1)) -> blocked',
    );
    expect(r.verdict).toEqual({ verdict: 'ok' });
    expect(r.trace.observations.map((o) => o.observed)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'ok', replayed: false }),
        expect.objectContaining({ kind: 'ok', replayed: true }),
      ]),
    );
  }, 60_000);

  it("runs a world event as a lane through the proxy: it waits on the call's row lock", async () => {
    const move: Step = { kind: 'move', resourceId: 1, workspace: 'team-b' };
    // The call takes BEGIN, its key lock and its row lock; then the move asks for the row.
    const r = await run(
      false,
      [{ kind: 'concurrent', events: [tryA, move] }],
      [{ choices: [0, 0, 0, 1] }],
    );
    expect(lines(r.detail)).toContain(
      '2 run statement UPDATE automations SET workspace = $1 WHERE id = $2 -> blocked',
    );
    expect(r.verdict).toEqual({ verdict: 'ok' });
    // One lane waiting: nothing for the server to choose.
    expect(r.detail.serverOrdered).toBeUndefined();
    expect(r.trace.observations.map((o) => o.observed)).toEqual([
      expect.objectContaining({ kind: 'ok', replayed: false }),
    ]);
  }, 60_000);

  it('three calls queued on one row: the run says the server chose which waiter went first', async () => {
    const tryOn = (requestId: string): CallEvent => ({
      ...tryA,
      request: { ...tryA.request, requestId },
    });
    const three: Step[] = [{ kind: 'concurrent', events: [tryOn('a'), tryOn('b'), tryOn('c')] }];
    // Lane 1 takes BEGIN, its key lock and the row; lanes 2 and 3 each take their own key lock
    // and wait for the row; lane 1 then commits, and both wake.
    const r = await run(false, three, [{ choices: [0, 0, 0, 1, 0, 0, 0, 0, 0] }]);
    const blocked = r.detail.entries.filter((e) => e.result === 'blocked').map((e) => e.lane);
    expect(blocked.slice(0, 2)).toEqual([1, 2]);
    expect(r.verdict).toEqual({ verdict: 'ok' });
    expect(r.detail.serverOrdered).toBe(true);
  }, 60_000);

  it('a crash mid-transaction ends its backend: rolled back, its lock freed, the other lane fresh', async () => {
    // Lane 1 is killed at its 4th point (before its receipt read), holding the key and row locks.
    const schedule = [{ choices: [], crash: { lane: 0, at: 4 } }];
    const raw = await (await runnerFor(false)).raw.executeScheduled(twoFirstTries, schedule);
    expect(raw.lanes[0]?.end).toEqual({ kind: 'crashed', committed: false });
    const r = await run(false, twoFirstTries, schedule);
    expect(r.verdict).toEqual({ verdict: 'ok' });
    expect(r.trace.observations.map((o) => o.observed)).toEqual([
      expect.objectContaining({ kind: 'ok', replayed: false }),
    ]);
  }, 60_000);

  it('a call that neither answers nor waits on a lock is a hang; the next run finds the database reset', async () => {
    const r = await run('hang', twoFirstTries, [{ choices: [] }]);
    const hang = { kind: 'hang', step: 0, lane: 0, event: tryA, limitMs: 1_500, how: 'unsettled' };
    expect(r.verdict).toEqual({ verdict: 'failed', failures: [hang] });
    expect(lines(r.detail).at(-1)).toBe('1 run statement SELECT pg_sleep(3600) -> ');
    // Its backend was ended (the row lock went with it): the next run is reset and hangs alike.
    const next = await run('hang', twoFirstTries, [{ choices: [] }]);
    expect(next.verdict).toEqual(r.verdict);
  }, 60_000);

  it('the correct service holds for every case three seeds draw', async () => {
    const { judged } = await runnerFor(false);
    for (const seed of [1, 2, 3]) {
      const found = await fc.check(
        fc.asyncProperty(judged.caseArbitrary(SMALL), async (c) => {
          const r = await judged.execute(c.steps, c.replay);
          return r.verdict.verdict === 'ok';
        }),
        { seed, numRuns: 8 },
      );
      expect(found.failed, `seed ${seed}: ${JSON.stringify(found.counterexample)}`).toBe(false);
    }
  }, 240_000);

  it('kills the check-then-act race on a schedule that lets both lookups miss', async () => {
    // Lane 1's lookup transaction misses and ends, then lane 2 runs whole (it misses too, and
    // writes); lane 1's write then finds the version moved on: a conflict, not a replay.
    const choices = [0, 0, 0, 0, 1];
    const bad = await run(true, twoFirstTries, [{ choices }]);
    expect(bad.verdict.verdict).toBe('failed');
    const lookup =
      'SELECT payload, result FROM receipts WHERE workspace = $1 AND user_id = $2 AND tool = $3 AND request_id = $4 -> ok';
    expect(lines(bad.detail).filter((l) => l.endsWith(lookup))).toEqual([
      `1 run statement ${lookup}`,
      `2 run statement ${lookup}`,
    ]);
    // The pair: the same case on the correct service holds.
    expect((await run(false, twoFirstTries, [{ choices }])).verdict).toEqual({
      verdict: 'ok',
    });
  }, 60_000);

  it('finds the race by random search, and its counterexample replays to the same trace', async () => {
    const { judged } = await runnerFor(true);
    const found = await fc.check(
      fc.asyncProperty(judged.caseArbitrary(SMALL), async (c) => {
        const r = await judged.execute(c.steps, c.replay);
        return r.verdict.verdict === 'ok';
      }),
      { seed: 7, numRuns: 40, endOnFailure: true },
    );
    expect(found.failed).toBe(true);
    const [c] = found.counterexample ?? [];
    if (!c) throw new Error('no counterexample');
    const first = await judged.execute(c.steps, c.replay);
    const again = await judged.execute(c.steps, c.replay);
    expect(first.verdict.verdict).toBe('failed');
    expect(again.verdict).toEqual(first.verdict);
    const [d1, d2] = [first.detail, again.detail] as ScheduledDetail[];
    expect(lines(d2 as ScheduledDetail)).toEqual(lines(d1 as ScheduledDetail));
    expect(d2?.traceHash).toBe(d1?.traceHash);
    expect(again.trace).toEqual(first.trace);
  }, 240_000);
});
