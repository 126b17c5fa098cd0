/**
 * Inline lanes (a replayable handler's calls paused by unwinding and resumed by replay, on the
 * coordinator's thread) give exactly what worker threads give: the same grants in the same order,
 * so the same trace hash, and the same verdict, crashes and faults included. A handler declared
 * replayable that is not (it sends other parameters when replayed, or its call waits on a timer)
 * is caught and moved to threads, or refused when inline lanes are forced. An async handler whose
 * awaits settle on the microtask queue runs inline: same traces as threads, its races killed, its
 * counterexamples replayed exactly.
 */

import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type JudgedScheduledRunner,
  scheduledRunnerFor,
} from '../../../../testing/judged-runners.ts';
import { savedScheduledCase } from '../../../../testing/scheduled-run-records.ts';
import { checkHandler } from '../../../api/check-handler.ts';
import type { CallEvent, Step } from '../../../model/events.ts';
import type { ScheduledDetail } from '../../../types/execution.ts';
import type { LaneMode } from '../../../types/mode.ts';

const opened: JudgedScheduledRunner[] = [];
afterAll(async () => {
  await Promise.all(opened.map((r) => r.close()));
});

async function runner(handler: string, lanes: LaneMode): Promise<JudgedScheduledRunner> {
  const r = await scheduledRunnerFor(handler, { lanes });
  opened.push(r);
  return r;
}

const call = (requestId: string, version = 1, minutes = 30, client = 0): CallEvent => ({
  kind: 'call',
  client,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion: version, intervalMinutes: minutes },
});
/** Lane 1 takes BEGIN IMMEDIATE, lane 2 is blocked on it, then both go on: pauses and replays. */
const RACE: Step[] = [{ kind: 'concurrent', events: [call('a'), call('b', 1, 60, 1)] }];

/**
 * A verdict without the stacks of unexpected errors: the same frames, but a worker's loader
 * (tsx) and this thread's (vitest) print an anonymous function's frame differently.
 */
function withoutStacks(verdict: unknown): unknown {
  return JSON.parse(JSON.stringify(verdict, (key, value) => (key === 'stack' ? undefined : value)));
}

function fixture(name: string): string {
  return fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
}

/** check-then-act awaiting between its check and its act: an async race to be found inline. */
const ASYNC_CHECK_THEN_ACT = fixture('async-check-then-act.ts');
/** The reference awaiting once before it answers: an async call whose await settles on microtasks. */
const ASYNC_REFERENCE = fileURLToPath(
  new URL(
    '../../../handlers/operations/set-interval/sqlite/set-interval-async-reference.ts',
    import.meta.url,
  ),
);

describe('inline lanes', () => {
  it.each<[string, string]>([
    ...[
      'reference',
      'check-then-act',
      'deferred-transaction',
      'receipt-after-commit',
      'busy-swallowed',
      'race-loser-error',
    ].map((name): [string, string] => [name, name]),
    // Async calls, their awaits settled on the microtask queue inside the coordinator's stretch.
    ['the async reference', ASYNC_REFERENCE],
    ['async check-then-act', ASYNC_CHECK_THEN_ACT],
  ])('give %s the very trace and verdict that threads give', async (_name, handler) => {
    const inline = await runner(handler, 'inline');
    const threads = await runner(handler, 'threads');
    const cases = fc.sample(inline.caseArbitrary({ stepsMax: 12, races: true, recreate: true }), {
      numRuns: 25,
      seed: 5,
    });
    let crashes = 0;
    let switches = 0;
    let blocked = 0;
    for (const c of cases) {
      const a = await inline.execute(c.steps, c.replay);
      const b = await threads.execute(c.steps, c.replay);
      const [da, db] = [a.detail as ScheduledDetail, b.detail as ScheduledDetail];
      expect(da.lanes).toBe(db.lanes);
      expect(da.traceHash).toBe(db.traceHash);
      expect(withoutStacks(a.verdict)).toEqual(withoutStacks(b.verdict));
      crashes += da.entries.filter((e) => e.grant === 'crash').length;
      switches += da.entries.filter((e) => e.chose).length;
      blocked += da.entries.filter((e) => e.result === 'blocked').length;
    }
    // The sample must reach what inline lanes do differently: calls paused mid-way for another
    // lane, and crashes; and for a BEGIN IMMEDIATE handler, lanes blocked on the lock and resumed.
    expect(switches).toBeGreaterThan(0);
    expect(crashes).toBeGreaterThan(0);
    if (handler === 'reference' || handler === ASYNC_REFERENCE) expect(blocked).toBeGreaterThan(0);
  });

  it.each([
    ['counting-replayable.ts', 'sends other parameters when replayed'],
    ['timer-replayable.ts', 'awaits a timer'],
  ])('catch a handler declared replayable that %s (%s)', async (name) => {
    const forced = await runner(fixture(name), 'inline');
    // Only forced inline lanes stop with it, so it says how to run the handler, not what the
    // default would have done instead.
    await expect(forced.executeScheduled(RACE, [{ choices: [0, 0, 1, 0] }])).rejects.toMatchObject({
      code: 'E_NOT_REPLAYABLE',
      message: expect.stringMatching(
        /inline lanes cannot run it: without --lanes inline \(lanes: 'inline'\) scheduled mode runs it on worker threads$/,
      ),
    });
    const auto = await runner(fixture(name), 'auto');
    const threads = await runner(fixture(name), 'threads');
    const a = await auto.executeScheduled(RACE, [{ choices: [0, 0, 1, 0] }]);
    const b = await threads.executeScheduled(RACE, [{ choices: [0, 0, 1, 0] }]);
    expect(a.verdict).toEqual({ verdict: 'ok' });
    expect((a.detail as ScheduledDetail).traceHash).toBe((b.detail as ScheduledDetail).traceHash);
  });

  it('kill an async race mutant, and replay its saved case with the same trace', async () => {
    const result = await checkHandler({
      handler: ASYNC_CHECK_THEN_ACT,
      mode: 'scheduled',
      lanes: 'inline',
      seed: 7,
      runs: 100,
    });
    const cx = result.counterexample;
    if (!cx) throw new Error('async check-then-act survived scheduled mode on inline lanes');
    expect(cx.steps.length).toBeLessThanOrEqual(6);
    const detail = cx.detail as ScheduledDetail;
    const saved = savedScheduledCase(cx);
    // Inline lanes are forced: a lane that could not settle a call inline would throw here.
    const inline = await runner(ASYNC_CHECK_THEN_ACT, 'inline');
    const threads = await runner(ASYNC_CHECK_THEN_ACT, 'threads');
    for (const r of [inline, inline, threads]) {
      const again = await r.execute(saved.steps, saved.extra);
      expect(again.verdict.verdict).toBe('failed');
      expect((again.detail as ScheduledDetail).traceHash).toBe(detail.traceHash);
    }
  });

  it("hand a handler the failure of its own BEGIN IMMEDIATE with the failure's stack", async () => {
    const inline = await runner(fixture('nested-begin-replayable.ts'), 'inline');
    const threads = await runner(fixture('nested-begin-replayable.ts'), 'threads');
    const schedule = [{ choices: [0, 0, 1, 0] }];
    const stacks = (verdict: unknown) => {
      const found: string[] = [];
      JSON.stringify(verdict, (key, value) => {
        if (key === 'stack' && typeof value === 'string') found.push(value);
        return value;
      });
      return found;
    };
    const a = (await inline.executeScheduled(RACE, schedule)).verdict;
    const b = (await threads.executeScheduled(RACE, schedule)).verdict;
    expect(withoutStacks(a)).toEqual(withoutStacks(b));
    expect(stacks(a)).toHaveLength(stacks(b).length);
    expect(stacks(a).length).toBeGreaterThan(0);
    for (const stack of stacks(a)) {
      expect(stack).toMatch(/^SqliteError: cannot start a transaction within a transaction/);
      expect(stack).toMatch(/\n\s+at /);
    }
  });
});
