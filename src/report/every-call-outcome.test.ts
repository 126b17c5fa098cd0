/**
 * Race-mode reports show every call, in pass/fail pairs, so that no report blames a
 * call wrongly: a scheduled run's calls that matched the model show what their clients saw, as
 * a concurrent run's calls after the stuck one do; a crashed call always carries a crash marker
 * and says how the checker read it (changed nothing, or took effect as some outcome), so the
 * expectations after it can be read; a call whose blame could fall on another lane says so.
 */
import { describe, expect, it } from 'vitest';
import { judgeRun } from '../check/judge-run.ts';
import type { CallEvent, Step } from '../model/events.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import { outcome } from '../model/outcome.ts';
import { initialState, toSnapshot } from '../model/state.ts';
import { run } from '../model/step.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import type { Execution } from '../types/execution.ts';
import type { Failure } from '../types/verdict.ts';
import { formatCounterexample } from './format-counterexample.ts';
import type { ReadableCase } from './readable-case.ts';
import { runDetail } from './run-detail.ts';

const send = (client: number, intent: CallEvent['intent'], minutes = 30): CallEvent => ({
  kind: 'call',
  client,
  request: { requestId: 'r0', automationId: 1, expectedVersion: 1, intervalMinutes: minutes },
  delivery: 'delivered',
  intent,
});
const result = { id: 1, intervalMinutes: 30, version: 2 };
const group: Step = { kind: 'concurrent', events: [send(0, 'new'), send(0, 'retry')] };
const loserFailure: Failure = {
  kind: 'outcome',
  step: 0,
  lane: 1,
  event: send(0, 'retry'),
  expected: outcome.replayed(result),
  actual: outcome.error('database is locked'),
};
const base: ReadableCase = {
  spec: setIntervalSpec,
  handlerName: 'mine',
  mode: 'scheduled',
  fixture: DEFAULT_FIXTURE,
  steps: [group],
  failures: [loserFailure],
};
const winnerLine =
  '      lane 1  alice@team-a sends r0: set automation 1 to 30 min expecting v1\n              → ok(fresh, id 1 interval 30 v2)';

describe('a scheduled report shows the outcome of matched calls', () => {
  it('from the call ends the run recorded', () => {
    const text = formatCounterexample({
      ...base,
      detail: {
        mode: 'scheduled',
        entries: [],
        ends: [
          {
            step: 0,
            lane: 0,
            end: { kind: 'observed', observed: outcome.fresh(result), faulted: false },
          },
          {
            step: 0,
            lane: 1,
            end: { kind: 'observed', observed: loserFailure.actual, faulted: false },
          },
        ],
      },
    });
    expect(text).toContain(winnerLine);
  });
  it('(a case saved without them shows the failing call alone)', () => {
    expect(formatCounterexample(base)).not.toContain('→ ok(fresh');
  });
});

describe('a concurrent report shows calls after the one no order explains', () => {
  const entry = (id: number, observed = outcome.fresh(result)) => ({
    id,
    client: 0,
    event: send(0, 'new'),
    observed,
    invokedAt: id,
    completedAt: id + 1,
  });
  const later: ReadableCase = {
    ...base,
    mode: 'concurrent',
    steps: [group, send(0, 'new', 45)],
    failures: [
      {
        kind: 'linearizability',
        verdict: 'illegal',
        longestPrefix: [{ ...entry(0), step: 0, lane: 0 }],
        stuck: [{ ...entry(1), step: 0, lane: 1, expected: outcome.replayed(result) }],
      },
    ],
  };
  const conflict = outcome.refused('conflict');
  it('from the history the run recorded', () => {
    const text = formatCounterexample({
      ...later,
      detail: {
        mode: 'concurrent',
        history: [entry(0), entry(1), entry(2, conflict)],
        places: [
          { step: 0, lane: 0 },
          { step: 0, lane: 1 },
          { step: 1, lane: 0 },
        ],
      },
    });
    expect(text).toContain('expecting v1\n      → refused(conflict)');
  });
  it('(without the history, from the failure alone, it cannot)', () => {
    expect(formatCounterexample(later)).not.toContain('→ refused(conflict)');
  });
});

describe('a crashed call', () => {
  const steps: Step[] = [send(0, 'new'), send(0, 'retry')];
  const retryFailure: Failure = {
    kind: 'outcome',
    step: 1,
    lane: 0,
    event: send(0, 'retry'),
    expected: outcome.fresh(result),
    actual: outcome.refused('conflict'),
  };
  const crashed = (readAs?: ReturnType<typeof outcome.fresh>) =>
    formatCounterexample({
      ...base,
      steps,
      failures: [retryFailure],
      detail: {
        mode: 'scheduled',
        entries: [],
        ends: [
          {
            step: 0,
            lane: 0,
            end: { kind: 'crashed', committed: true },
            ...(readAs ? { readAs } : {}),
          },
          {
            step: 1,
            lane: 0,
            end: { kind: 'observed', observed: retryFailure.actual, faulted: false },
          },
        ],
      },
    });

  it('is marked and read as having changed nothing, so its retry is expected fresh', () => {
    expect(crashed()).toContain(
      [
        '  1.  alice@team-a sends r0: set automation 1 to 30 min expecting v1',
        '      ↯ crashed: the client gets no answer',
        '      → no answer: it crashed after a commit and is read here as having changed nothing (a reading the contract allows: a call that commits twice, a claim and then its write, can die between the two)',
        '  2.  alice@team-a retries r0',
      ].join('\n'),
    );
  });
  it('read as having taken effect says as what', () => {
    expect(crashed(outcome.fresh(result))).toContain(
      '→ no answer: it crashed after a commit, read as having taken effect, as ok(fresh, id 1 interval 30 v2)',
    );
  });
  it('read as having left its claim says so, so its retry is expected in progress', () => {
    const text = formatCounterexample({
      ...base,
      steps,
      failures: [
        { ...retryFailure, expected: outcome.refused('conflict'), actual: outcome.fresh(result) },
      ],
      detail: {
        mode: 'scheduled',
        entries: [],
        ends: [{ step: 0, lane: 0, end: { kind: 'crashed', committed: true }, leftClaim: true }],
      },
    });
    expect(text).toContain(
      '→ no answer: it crashed after a commit, read as having left its claim (policy claimExpiry): that commit was the claim, and the key answers as in progress until the claim expires',
    );
  });
  it('(a case saved without its call ends has no marker to show)', () => {
    expect(formatCounterexample({ ...base, steps, failures: [retryFailure] })).not.toContain(
      'crash',
    );
  });
});

describe('a call whose blame could fall on another lane', () => {
  const both = formatCounterexample({
    ...base,
    failures: [{ ...loserFailure, actual: outcome.fresh(result), orInstead: [0] }],
  });
  it('names that lane, on the step and in what broke', () => {
    expect(both).toContain(
      '(or lane 1 answered wrongly instead: an order of this step that blames as few calls explains this answer and blames lane 1; no order explains all of them)',
    );
    expect(both).toContain(
      '(or lane 1 instead: another order explains this answer and blames lane 1)',
    );
  });
  it('and a call no order explains names none', () => {
    expect(formatCounterexample(base)).not.toContain('instead');
  });
});

describe('runDetail keeps how each call of a scheduled run ended', () => {
  const call = send(0, 'new');
  const endsOf = (retry: ReturnType<typeof outcome.fresh>) => {
    const execution: Execution = {
      mode: 'scheduled',
      schedule: [],
      lanes: [
        { step: 0, lane: 0, event: call, end: { kind: 'crashed', committed: true }, effectAt: 0 },
        {
          step: 1,
          lane: 0,
          event: call,
          end: { kind: 'observed', observed: retry, faulted: false },
          effectAt: 1,
        },
      ],
      entries: [],
      snapshot: toSnapshot(run(initialState(DEFAULT_FIXTURE, setIntervalSpec), [call]).state),
    };
    const d = runDetail(
      execution,
      judgeRun(DEFAULT_FIXTURE, setIntervalSpec, [call, call], execution),
    );
    return d?.mode === 'scheduled' ? d.ends : undefined;
  };

  it('a crash its replayed retry shows took effect is read as its fresh outcome', () => {
    expect(endsOf(outcome.replayed(result))).toEqual([
      {
        step: 0,
        lane: 0,
        end: { kind: 'crashed', committed: true },
        readAs: outcome.fresh(result),
      },
      {
        step: 1,
        lane: 0,
        end: { kind: 'observed', observed: outcome.replayed(result), faulted: false },
      },
    ]);
  });
  it('a crash its in-progress retry shows left a claim is read as that (claimExpiry)', () => {
    const fixture = { ...DEFAULT_FIXTURE, policy: { claimExpiry: 'never' as const } };
    const execution: Execution = {
      mode: 'scheduled',
      schedule: [],
      lanes: [
        { step: 0, lane: 0, event: call, end: { kind: 'crashed', committed: true }, effectAt: 0 },
        {
          step: 1,
          lane: 0,
          event: call,
          end: { kind: 'observed', observed: outcome.refused('conflict'), faulted: false },
          effectAt: 1,
        },
      ],
      entries: [],
      snapshot: toSnapshot(initialState(DEFAULT_FIXTURE, setIntervalSpec)),
    };
    const d = runDetail(execution, judgeRun(fixture, setIntervalSpec, [call, call], execution));
    expect(d?.mode === 'scheduled' ? d.ends?.[0] : undefined).toEqual({
      step: 0,
      lane: 0,
      end: { kind: 'crashed', committed: true },
      leftClaim: true,
    });
  });
  it('a crash its fresh retry shows changed nothing is read as nothing', () => {
    expect(endsOf(outcome.fresh(result))?.[0]).toEqual({
      step: 0,
      lane: 0,
      end: { kind: 'crashed', committed: true },
    });
  });
});
