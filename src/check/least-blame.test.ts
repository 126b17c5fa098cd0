/**
 * What a failing scheduled run blames, in pass/fail pairs, so that no report blames a
 * call wrongly: the winner of a race whose commit came after the loser's last statement is not
 * blamed beside the loser; two answers of which either could be the wrong one say so; a call that
 * crashed after a commit is read as having changed nothing when the database and the later calls
 * say so, so no row change or fresh outcome is expected of it.
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent, Event, Step } from '../model/events.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import type { Observed } from '../model/outcome.ts';
import { initialState, toSnapshot } from '../model/state.ts';
import { run as runModel } from '../model/step.ts';
import { DEFAULT_FIXTURE, type Snapshot } from '../model/world.ts';
import type { LaneEnd, LaneRecord } from '../types/scheduled-trace.ts';
import { checkScheduledRun, type ScheduledVerdict } from './check-scheduled-run.ts';

const call = (requestId: string, minutes: number): CallEvent => ({
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion: 1, intervalMinutes: minutes },
});
const fresh = (minutes: number): Observed => ({
  kind: 'ok',
  replayed: false,
  result: { id: 1, intervalMinutes: minutes, version: 2 },
});
const replayed = (minutes: number): Observed =>
  ({ ...(fresh(minutes) as object), replayed: true }) as Observed;
const locked: Observed = { kind: 'error', message: 'database is locked' };
const conflict: Observed = { kind: 'refused', reason: 'conflict' };
const seen = (observed: Observed): LaneEnd => ({ kind: 'observed', observed, faulted: false });
const rec = (step: number, lane: number, event: Event, end: LaneEnd, effectAt: number) =>
  ({ step, lane, event, end, effectAt }) satisfies LaneRecord;
const modelAfter = (...events: Event[]): Snapshot =>
  toSnapshot(runModel(initialState(DEFAULT_FIXTURE, setIntervalSpec), events).state);
const check = (steps: Step[], lanes: LaneRecord[], snapshot: Snapshot) =>
  checkScheduledRun({ spec: setIntervalSpec, fixture: DEFAULT_FIXTURE, steps, lanes, snapshot });
const failuresOf = (v: ScheduledVerdict) =>
  v.verdict.verdict === 'failed' ? v.verdict.failures : [];
const blamed = (v: ScheduledVerdict) =>
  failuresOf(v).flatMap((f) => (f.kind === 'outcome' ? [`${f.step}:${f.lane}`] : []));

describe('a race whose winner committed after the loser last ran', () => {
  const dup: Step = { kind: 'concurrent', events: [call('k', 30), call('k', 30)] };

  it('ok: the loser replays, the winner is fresh', () => {
    const lanes = [
      rec(0, 0, call('k', 30), seen(replayed(30)), 3),
      rec(0, 1, call('k', 30), seen(fresh(30)), 9),
    ];
    expect(check([dup], lanes, modelAfter(call('k', 30))).verdict).toEqual({ verdict: 'ok' });
  });

  it('failed: the loser answered error, and it alone is blamed, as a replay missed', () => {
    const lanes = [
      rec(0, 0, call('k', 30), seen(locked), 3),
      rec(0, 1, call('k', 30), seen(fresh(30)), 9),
    ];
    const v = check([dup], lanes, modelAfter(call('k', 30)));
    expect(blamed(v)).toEqual(['0:0']);
    expect(failuresOf(v)[0]).toMatchObject({ expected: replayed(30), actual: locked });
    expect(failuresOf(v)[0]).not.toHaveProperty('orInstead');
    expect(v.order).toEqual([
      { step: 0, lane: 1 },
      { step: 0, lane: 0 },
    ]);
  });

  it('failed: both fresh, one is blamed and the other named as the alternative', () => {
    const lanes = [
      rec(0, 0, call('k', 30), seen(fresh(30)), 3),
      rec(0, 1, call('k', 30), seen(fresh(30)), 9),
    ];
    const v = check([dup], lanes, modelAfter(call('k', 30)));
    expect(blamed(v)).toEqual(['0:1']);
    expect(failuresOf(v)[0]).toMatchObject({ orInstead: [0] });
  });
});

describe('a crash after a commit (a claim) that never reached the write', () => {
  const steps: Step[] = [call('k', 30), call('k', 30)];
  const crashed = rec(0, 0, call('k', 30), { kind: 'crashed', committed: true }, 0);

  it('ok: its retry is fresh, and the crash is read as having changed nothing', () => {
    const v = check(
      steps,
      [crashed, rec(1, 0, call('k', 30), seen(fresh(30)), 1)],
      modelAfter(call('k', 30)),
    );
    expect(v.verdict).toEqual({ verdict: 'ok' });
    expect(v.noEffect).toEqual([{ step: 0, lane: 0 }]);
  });

  it('failed: its retry is refused; the retry alone is blamed, expected fresh, no crash change expected', () => {
    const v = check(steps, [crashed, rec(1, 0, call('k', 30), seen(conflict), 1)], modelAfter());
    expect(failuresOf(v)[0]).toMatchObject({
      kind: 'outcome',
      step: 1,
      expected: fresh(30),
      actual: conflict,
    });
    // No invariant counts the crashed call as a fresh ok the database lacks.
    expect(failuresOf(v).filter((f) => f.kind === 'invariant')).toEqual([]);
    expect(v.noEffect).toEqual([{ step: 0, lane: 0 }]);
  });
});
