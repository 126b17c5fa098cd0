/**
 * `checkConcurrentRun` on hand-written concurrent runs, in pass/fail pairs: what a real overlap
 * may produce is accepted whatever the lane order; what no serial order explains is rejected,
 * naming the call that could not be placed and what the model expected of it; a lost response
 * is accepted whether its write reached the database or not, but a write nothing explains is not.
 * Pure: no worker, no SQLite.
 */
import { describe, expect, it } from 'vitest';
import { type ConcurrentRunRecord, checkConcurrentRun } from '../src/check/check-concurrent-run.ts';
import type { CallEvent, Step } from '../src/model/events.ts';
import type { HistoryEntry } from '../src/model/history.ts';
import { setInterval as setIntervalSpec } from '../src/model/operations/set-interval.ts';
import type { Observed } from '../src/model/outcome.ts';
import { DEFAULT_FIXTURE, type Receipt, type Snapshot } from '../src/model/world.ts';

const call = (
  requestId: string,
  expectedVersion: number,
  intervalMinutes: number,
  lost = false,
): CallEvent => ({
  kind: 'call',
  client: 0,
  delivery: lost ? 'lostResponse' : 'delivered',
  request: { requestId, automationId: 1, expectedVersion, intervalMinutes },
});
const fresh = (version: number, intervalMinutes: number): Observed => ({
  kind: 'ok',
  replayed: false,
  result: { id: 1, intervalMinutes, version },
});
const replayed = (version: number, intervalMinutes: number): Observed => ({
  ...(fresh(version, intervalMinutes) as Extract<Observed, { kind: 'ok' }>),
  replayed: true,
});
const receipt = (requestId: string, version: number, interval: number): Receipt => ({
  workspace: 'team-a',
  user: 'alice',
  tool: 'set_interval.v1',
  requestId,
  payload: { id: 1, version: version - 1, interval },
  result: { id: 1, intervalMinutes: interval, version },
});
const world = (
  row1: { version: number; intervalMinutes: number },
  receipts: Receipt[],
): Snapshot => ({
  automations: DEFAULT_FIXTURE.automations.map((a) => (a.id === 1 ? { ...a, ...row1 } : a)),
  receipts,
});

/** A run of one step or group per `ops` row: [step, lane, event, invokedAt, completedAt?, observed?]. */
function record(
  ops: [number, number, CallEvent, number, number | undefined, Observed | undefined][],
  snapshot: Snapshot,
  real: Observed[],
  returnedAt?: (number | undefined)[],
): ConcurrentRunRecord {
  const steps: Step[] = [];
  for (const [step, , event] of ops) {
    const at = steps[step];
    if (!at) steps[step] = event;
    else
      steps[step] = {
        kind: 'concurrent',
        events: [...(at.kind === 'concurrent' ? at.events : [at]), event],
      };
  }
  const history: HistoryEntry[] = ops.map(
    ([, lane, event, invokedAt, completedAt, observed], id) => ({
      id,
      client: lane,
      event,
      invokedAt,
      ...(completedAt !== undefined ? { completedAt } : {}),
      ...(observed ? { observed } : {}),
    }),
  );
  return {
    spec: setIntervalSpec,
    fixture: DEFAULT_FIXTURE,
    steps,
    trace: {
      observations: ops.map(([step, lane, event], i) => ({
        step,
        lane,
        event,
        observed: real[i] as Observed,
      })),
      snapshot,
    },
    history,
    places: ops.map(([step, lane]) => ({ step, lane })),
    ...(returnedAt ? { returnedAt } : {}),
  };
}

describe('identical duplicates released together', () => {
  const dup = call('r1', 1, 30);
  const done = world({ version: 2, intervalMinutes: 30 }, [receipt('r1', 2, 30)]);

  it('accepts a replay in lane 0 that took effect after the fresh call in lane 1', () => {
    const run = record(
      [
        [0, 0, dup, 0, 10, replayed(2, 30)],
        [0, 1, dup, 1, 5, fresh(2, 30)],
      ],
      done,
      [replayed(2, 30), fresh(2, 30)],
    );
    expect(checkConcurrentRun(run)).toEqual({ verdict: { verdict: 'ok' }, order: [1, 0] });
  });

  it('rejects two fresh results, naming the one that should have been a replay', () => {
    const run = record(
      [
        [0, 0, dup, 0, 10, fresh(2, 30)],
        [0, 1, dup, 1, 5, fresh(2, 30)],
      ],
      done,
      [fresh(2, 30), fresh(2, 30)],
    );
    const { verdict } = checkConcurrentRun(run);
    expect(verdict.verdict).toBe('failed');
    if (verdict.verdict !== 'failed') return;
    expect(verdict.failures[0]).toMatchObject({
      kind: 'linearizability',
      verdict: 'illegal',
      longestPrefix: [{ step: 0 }],
      stuck: [{ step: 0, observed: fresh(2, 30), expected: replayed(2, 30) }],
    });
  });

  it('rejects a replay that completed before its fresh call began (real time)', () => {
    const run = record(
      [
        [0, 0, dup, 0, 1, replayed(2, 30)],
        [1, 0, dup, 2, 3, fresh(2, 30)],
      ],
      done,
      [replayed(2, 30), fresh(2, 30)],
    );
    expect(checkConcurrentRun(run).verdict.verdict).toBe('failed');
  });
});

describe('invariants read lanes in any order', () => {
  it('accepts versions 3 then 2 in lane order when lane 1 took effect first', () => {
    const run = record(
      [
        [0, 0, call('r2', 2, 60), 0, 10, fresh(3, 60)],
        [0, 1, call('r1', 1, 30), 1, 5, fresh(2, 30)],
      ],
      world({ version: 3, intervalMinutes: 60 }, [receipt('r1', 2, 30), receipt('r2', 3, 60)]),
      [fresh(3, 60), fresh(2, 30)],
    );
    expect(checkConcurrentRun(run)).toEqual({ verdict: { verdict: 'ok' }, order: [1, 0] });
  });
});

describe('a lost response nothing observed afterwards', () => {
  const lost = call('r1', 1, 30, true);
  const ops: [number, number, CallEvent, number, undefined, undefined][] = [
    [0, 0, lost, 0, undefined, undefined],
  ];

  it('is accepted when its write reached the database', () => {
    const run = record(ops, world({ version: 2, intervalMinutes: 30 }, [receipt('r1', 2, 30)]), [
      fresh(2, 30),
    ]);
    expect(checkConcurrentRun(run).verdict).toEqual({ verdict: 'ok' });
  });

  it('is accepted when it never took effect', () => {
    const run = record(ops, world({ version: 1, intervalMinutes: 15 }, []), [
      { kind: 'error', message: 'x' },
    ]);
    expect(checkConcurrentRun(run).verdict).toEqual({ verdict: 'ok' });
  });

  it('is accepted when two lost responses both wrote, given when they really returned', () => {
    const other: CallEvent = {
      ...call('r2', 1, 60, true),
      request: { requestId: 'r2', automationId: 2, expectedVersion: 1, intervalMinutes: 60 },
    };
    const run = record(
      [...ops, [1, 0, other, 1, undefined, undefined]],
      {
        automations: DEFAULT_FIXTURE.automations.map((a) =>
          a.id === 1
            ? { ...a, version: 2, intervalMinutes: 30 }
            : a.id === 2
              ? { ...a, version: 2, intervalMinutes: 60 }
              : a,
        ),
        receipts: [
          receipt('r1', 2, 30),
          {
            ...receipt('r2', 2, 60),
            payload: { id: 2, version: 1, interval: 60 },
            result: { id: 2, intervalMinutes: 60, version: 2 },
          },
        ],
      },
      [
        fresh(2, 30),
        { kind: 'ok', replayed: false, result: { id: 2, intervalMinutes: 60, version: 2 } },
      ],
      [0.5, 1.5],
    );
    expect(checkConcurrentRun(run).verdict).toEqual({ verdict: 'ok' });
  });

  it('does not excuse a write no operation explains', () => {
    const run = record(ops, world({ version: 2, intervalMinutes: 60 }, [receipt('r1', 2, 60)]), [
      fresh(2, 60),
    ]);
    const { verdict } = checkConcurrentRun(run);
    expect(verdict.verdict === 'failed' && verdict.failures.map((f) => f.kind)).toContain(
      'snapshot',
    );
  });
});
