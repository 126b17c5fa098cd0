/**
 * The scheduled judge reads generation's walk of the model instead of stepping it again only
 * when that walk is the derived order's: every group took effect in lane order, no lane crashed
 * or had a fault, no call may carry the in-flight answer, and the records are the steps' own
 * events. Each case is a run the model fails, judged also with a false walk that agrees with
 * everything the run saw: where the walk must be read the run passes with it, everywhere else the
 * verdict must be the one without it.
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent, Event, Step } from '../model/events.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import type { Observed } from '../model/outcome.ts';
import { type FixtureWithPolicy, initialState, toSnapshot } from '../model/state.ts';
import { run as runModel } from '../model/step.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import type { LaneEnd, LaneRecord } from '../types/scheduled-trace.ts';
import { checkScheduledRun } from './check-scheduled-run.ts';

const call = (requestId: string, minutes: number): CallEvent => ({
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion: 1, intervalMinutes: minutes },
});
const fresh: Observed = {
  kind: 'ok',
  replayed: false,
  result: { id: 1, intervalMinutes: 30, version: 2 },
};
const forbidden: Observed = { kind: 'refused', reason: 'forbidden' };
const seen = (observed: Observed, faulted = false): LaneEnd => ({
  kind: 'observed',
  observed,
  faulted,
});
const rec = (step: number, lane: number, event: Event, end: LaneEnd, effectAt: number) =>
  ({ step, lane, event, end, effectAt }) as LaneRecord;

/**
 * The run judged without a walk, and with a false one: each record's own answer as the model's
 * (`fresh` for a crash) and the model's state after `after`, whose rows the snapshot shows.
 */
function judged(
  steps: Step[],
  lanes: LaneRecord[],
  after: Event[],
  fixture: FixtureWithPolicy = DEFAULT_FIXTURE,
) {
  const state = runModel(initialState(fixture, setIntervalSpec), after).state;
  const record = { fixture, spec: setIntervalSpec, steps, lanes, snapshot: toSnapshot(state) };
  const outcomes = lanes.map((r) => (r.end.kind === 'observed' ? r.end.observed : fresh));
  return {
    without: checkScheduledRun(record),
    falseWalk: checkScheduledRun({ ...record, walk: { outcomes, state } }),
  };
}

describe("the scheduled judge and generation's walk", () => {
  const a = call('k', 30);
  const twin = call('k', 30);
  const group: Step[] = [{ kind: 'concurrent', events: [a, twin] }];

  it('reads the walk for a run whose group took effect in lane order, nothing crashed or faulted', () => {
    // Check-then-act: both duplicates fresh, which no order explains.
    const lanes = [rec(0, 0, a, seen(fresh), 3), rec(0, 1, twin, seen(fresh), 7)];
    const { without, falseWalk } = judged(group, lanes, [a]);
    const kinds = (v: typeof without) =>
      v.verdict.verdict === 'failed' ? v.verdict.failures.map((f) => f.kind) : [];
    expect(kinds(without)).toContain('outcome');
    // The false walk agrees with both answers; only the invariants, which read no walk, remain.
    expect(kinds(falseWalk)).not.toContain('outcome');
    expect(kinds(falseWalk)).toContain('invariant');
  });

  it('walks the model itself when a group took effect out of lane order', () => {
    const lanes = [rec(0, 0, a, seen(fresh), 7), rec(0, 1, twin, seen(fresh), 3)];
    const { without, falseWalk } = judged(group, lanes, [a]);
    expect(without.verdict.verdict).toBe('failed');
    expect(falseWalk).toEqual(without);
  });

  it('walks the model itself after a crash, before or after its commit', () => {
    for (const committed of [false, true]) {
      const lanes = [
        rec(0, 0, a, { kind: 'crashed', committed }, 0),
        rec(1, 0, twin, seen(forbidden), 1),
      ];
      const { without, falseWalk } = judged([a, twin], lanes, [a]);
      expect(without.verdict.verdict).toBe('failed');
      expect(falseWalk).toEqual(without);
    }
  });

  it('walks the model itself after a statement fault', () => {
    const lanes = [rec(0, 0, a, seen(forbidden, true), 0)];
    const { without, falseWalk } = judged([a], lanes, []);
    expect(without.verdict.verdict).toBe('failed');
    expect(falseWalk).toEqual(without);
  });

  it('walks the model itself when a call may carry the in-flight answer', () => {
    const policy = { ...DEFAULT_FIXTURE, policy: { inFlightDuplicate: 'conflict' as const } };
    const conflict: Observed = { kind: 'refused', reason: 'conflict' };
    const lanes = [rec(0, 0, a, seen(fresh), 3), rec(0, 1, twin, seen(conflict), 7)];
    // Answered fresh, yet nothing was written.
    const { without, falseWalk } = judged(group, lanes, [], policy);
    expect(without.verdict.verdict).toBe('failed');
    expect(falseWalk).toEqual(without);
  });

  it("walks the model itself when the records are not the steps' own events", () => {
    const lanes = [rec(0, 0, call('k', 30), seen(fresh), 3), rec(0, 1, twin, seen(fresh), 7)];
    const { without, falseWalk } = judged(group, lanes, [a]);
    expect(without.verdict.verdict).toBe('failed');
    expect(falseWalk).toEqual(without);
  });
});
