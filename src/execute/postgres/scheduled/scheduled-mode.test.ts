/**
 * Scheduled mode on a real PostgreSQL server: a lane waiting on the reference's key lock is seen
 * blocked (the trace says so) and goes on once the lock is free; a crash mid-transaction rolls
 * back and frees its locks; a fault makes the write fail as a failing store does
 * (and a handler that swallowed it would be caught); a deadlock two lanes close ends in
 * PostgreSQL's 40P01 for the lane that closed it, a write racing a SERIALIZABLE one in 40001; the
 * same steps and schedule give the same trace; a lane backing off on a timer after 55P03 hands
 * the turn to the lane holding the row; a run in which the server chose which of two or
 * more waiting lanes went first says so (`serverOrdered`), whichever backend won; and nothing is
 * left running or on disk.
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import nowaitBackoff from '../../../handlers/operations/set-interval/postgres/fixtures/nowait-backoff.ts';
import checkThenAct from '../../../handlers/operations/set-interval/postgres/mutants/check-then-act.ts';
import lockOrderInversion from '../../../handlers/operations/set-interval/postgres/mutants/lock-order-inversion.ts';
import serializableNoRetry from '../../../handlers/operations/set-interval/postgres/mutants/serializable-no-retry.ts';
import reference from '../../../handlers/operations/set-interval/postgres/set-interval-pg-reference.ts';
import type { PostgresHandlerPlugin } from '../../../handlers/postgres/plugin.ts';
import type { CallEvent, Step } from '../../../model/events.ts';
import { setInterval as setIntervalSpec } from '../../../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../../../model/world.ts';
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

const opened = new Map<string, Promise<{ raw: PgScheduledRunner; judged: JudgedRunner }>>();

/** One runner per handler, shared by the tests. */
function runnerFor(plugin: PostgresHandlerPlugin) {
  let runner = opened.get(plugin.name);
  if (!runner) {
    runner = postgresScheduledRunner(plugin, {
      spec: setIntervalSpec,
      fixture: DEFAULT_FIXTURE,
      callTimeoutMs: 20_000,
    }).then((raw) => ({ raw, judged: judgedRunner(raw, DEFAULT_FIXTURE, setIntervalSpec) }));
    opened.set(plugin.name, runner);
  }
  return runner;
}

beforeAll(() => runnerFor(reference), 120_000);
afterAll(async () => {
  for (const r of opened.values()) await (await r).raw.close();
  await stopEmbeddedPostgres();
  expect(
    readdirSync(tmpdir()).filter((n) => n.startsWith(`receiptcheck-pg-${process.pid}-`)),
  ).toEqual([]);
}, 60_000);

async function run(steps: Step[], schedule: StepSchedule[], plugin = reference) {
  const r = await (await runnerFor(plugin)).judged.execute(steps, { schedule });
  return { ...r, detail: r.detail as ScheduledDetail };
}

/** A run of one gated step, and the lanes whose statements were seen waiting, in trace order. */
async function ordered(steps: Step[], schedule: StepSchedule, plugin = checkThenAct) {
  const { detail } = await run(steps, [schedule], plugin);
  const blocked = detail.entries.filter((e) => e.result === 'blocked').map((e) => e.lane);
  return { detail, blocked };
}

const move: Step = { kind: 'move', resourceId: 1, workspace: 'team-b' };

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

  // Yield points of a reference call: 0 start, 1 BEGIN, 2 key lock, 3 row lock, 4 receipt read,
  // 5 UPDATE, 6 INSERT, 7 COMMIT, 8 reply.
  it('a crash mid-transaction: rolled back, its locks freed, the retry fresh', async () => {
    const steps: Step[] = [call('a'), call('a')];
    const r = await run(steps, [{ choices: [], crash: { lane: 0, at: 6 } }]);
    expect(r.verdict).toEqual({ verdict: 'ok' });
    const crash = r.detail.entries.find((e) => e.grant === 'crash');
    expect(crash).toMatchObject({ step: 0, sql: expect.stringMatching(/^INSERT INTO receipts/) });
    expect(r.detail.ends?.map((e) => e.end.kind)).toEqual(['crashed', 'observed']);
    expect(r.trace.observations.at(-1)?.observed).toMatchObject({ kind: 'ok', replayed: false });
    expect(r.trace.snapshot.receipts).toHaveLength(1);
  }, 60_000);

  it('a crash after COMMIT, before the reply: the change stays, and the retry replays it', async () => {
    const r = await run([call('a'), call('a')], [{ choices: [], crash: { lane: 0, at: 8 } }]);
    expect(r.verdict).toEqual({ verdict: 'ok' });
    expect(r.detail.ends?.[0]?.end).toEqual({ kind: 'crashed', committed: true });
    expect(r.trace.observations.at(-1)?.observed).toMatchObject({ kind: 'ok', replayed: true });
  }, 60_000);

  it('a fault fails the chosen write as a failing store does: the call answers error, nothing changed', async () => {
    for (const at of [0, 1]) {
      const r = await run([call('a')], [{ choices: [], fault: { lane: 0, at } }]);
      expect(r.verdict, `fault at write ${at}`).toEqual({ verdict: 'ok' });
      const fault = r.detail.entries.find((e) => e.grant === 'fault');
      expect(fault).toMatchObject({ result: '23000' });
      expect(fault?.sql).toMatch(at === 0 ? /^UPDATE automations/ : /^INSERT INTO receipts/);
      expect(r.trace.observations[0]?.observed.kind).toBe('error');
      expect(r.trace.snapshot.receipts).toEqual([]);
    }
  }, 60_000);

  it('two lanes that lock in opposite orders: the lane that closes the cycle gets 40P01', async () => {
    // The call locks its key and its row; the move then takes the application lock and waits
    // for the row; the call asks for the application lock and closes the cycle.
    const steps: Step[] = [{ kind: 'concurrent', events: [call('a'), move] }];
    const schedule = [{ choices: [0, 0, 0, 1, 0, 0] }];
    const r = await run(steps, schedule, lockOrderInversion);
    const results = r.detail.entries.map((e) => `${e.lane}:${e.result}`);
    expect(results).toContain('1:blocked');
    expect(results).toContain('0:40P01');
    expect(r.verdict.verdict).toBe('failed');
    expect(r.trace.observations[0]?.observed).toMatchObject({
      kind: 'unexpected',
      message: 'deadlock detected',
    });
    // The reference takes its locks in one order: the same schedule is no deadlock.
    const held = await run(steps, schedule);
    expect(held.verdict).toEqual({ verdict: 'ok' });
    expect(held.detail.entries.map((e) => e.result)).not.toContain('40P01');
  }, 60_000);

  it('a write racing a SERIALIZABLE one that committed first fails with 40001', async () => {
    const steps: Step[] = [{ kind: 'concurrent', events: [call('a'), call('a')] }];
    // Lane 1 reads; lane 2 runs to its update; lane 1's update waits on it, then fails.
    const schedule = [{ choices: [0, 0, 0, 1, 0, 0, 0, 1] }];
    const r = await run(steps, schedule, serializableNoRetry);
    expect(r.detail.entries.filter((e) => e.lane === 0).map((e) => e.result)).toEqual(
      expect.arrayContaining(['blocked', '40001']),
    );
    expect(r.verdict.verdict).toBe('failed');
    expect((await run(steps, schedule)).verdict).toEqual({ verdict: 'ok' });
  }, 60_000);

  it('the same steps and schedule give the same trace', async () => {
    const steps: Step[] = [
      { kind: 'concurrent', events: [call('a'), call('a', 1, 45), move] },
      { kind: 'concurrent', events: [call('b', 2, 30, 1), call('b', 2, 30, 1)] },
    ];
    const schedule = [{ choices: [1, 2, 0, 1, 1, 2, 0, 1] }, { choices: [1, 1, 0, 1] }];
    const hashes = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const r = await run(steps, schedule);
      expect(r.detail.entries.map((e) => e.result)).toContain('blocked');
      // Its waits are one at a time or for the key lock: the schedule decided everything.
      expect(r.detail.serverOrdered).toBeUndefined();
      hashes.add(r.detail.traceHash);
    }
    expect(hashes.size).toBe(1);
  }, 120_000);

  it('a lane that sleeps between retries of 55P03 yields: the holder commits, the trace repeats', async () => {
    // Lane 1 locks the row; lane 2's FOR UPDATE NOWAIT meets it, and lane 2 backs off on a timer
    // before each retry, up to 200 times: were it to keep the grants, every retry would fail.
    const steps: Step[] = [{ kind: 'concurrent', events: [call('a'), call('b')] }];
    const hashes = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const r = await run(steps, [{ choices: [0, 0, 0, 1] }], nowaitBackoff);
      const { entries } = r.detail;
      expect(entries.some((e) => e.lane === 1 && e.result === '55P03')).toBe(true);
      // Lane 2 rolls back and sleeps: the next grant is lane 1's, with no switch drawn.
      const rollback = entries.findIndex((e) => e.lane === 1 && e.sql === 'ROLLBACK');
      expect(entries[rollback + 1]?.lane).toBe(0);
      expect(r.verdict).toEqual({ verdict: 'ok' });
      hashes.add(r.detail.traceHash);
    }
    expect(hashes.size).toBe(1);
  }, 120_000);
});

describe('a scheduled PostgreSQL run the server ordered says so', () => {
  // Lane 3 waits behind lane 2 on the row's tuple lock (`pg_blocking_pids` names lane 2 alone),
  // so the queue is seen through the wait-for graph, not only who waits on lane 1 directly. After
  // the wake-up the loser waits again on the winner: the trace may show a third wait.
  it('three lanes queued on one row, let go by a COMMIT: marked, whichever waiter won', async () => {
    const r = await ordered(THREE_ON_ONE_ROW, QUEUED);
    expect(r.blocked.slice(0, 2)).toEqual([1, 2]);
    expect(r.detail.serverOrdered).toBe(true);
  }, 60_000);

  it('the same queue let go by a crash of the holder: marked', async () => {
    const r = await ordered(THREE_ON_ONE_ROW, { ...QUEUED, crash: { lane: 0, at: 5 } });
    expect(r.blocked.slice(0, 2)).toEqual([1, 2]);
    expect(r.detail.entries.find((e) => e.grant === 'crash')?.lane).toBe(0);
    expect(r.detail.serverOrdered).toBe(true);
  }, 60_000);

  it('one lane waiting, or none: not marked (the schedule decided everything)', async () => {
    const oneWaits = await ordered(TWO_ON_ONE_ROW, ONE_WAITS);
    expect(oneWaits.blocked).toEqual([1]);
    expect(oneWaits.detail.serverOrdered).toBeUndefined();
    // Three lanes, one waiting at a time: lane 3 reaches the row after lane 1 committed.
    const inTurn = await ordered(THREE_ON_ONE_ROW, IN_TURN);
    expect(inTurn.blocked).toEqual([1]);
    expect(inTurn.detail.serverOrdered).toBeUndefined();
    const laneOrder = await ordered(THREE_ON_ONE_ROW, { choices: [] });
    expect(laneOrder.blocked).toEqual([]);
    expect(laneOrder.detail.serverOrdered).toBeUndefined();
  }, 60_000);

  it('two lanes queued on an advisory lock: not marked (the lock manager hands it on in queue order)', async () => {
    const r = await ordered(THREE_ON_ONE_KEY, KEY_QUEUED, reference);
    expect(r.blocked.slice(0, 2)).toEqual([1, 2]);
    expect(r.detail.serverOrdered).toBeUndefined();
  }, 60_000);
});
