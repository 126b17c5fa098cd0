/**
 * The scheduler's pure parts: the choice function, statement classification, the trace hash and
 * the lanes view, and the case arbitrary keeping each schedule entry on its own step.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Move } from '../../../generate/moves.ts';
import {
  resolveWithSchedule,
  scheduledCaseArbitrary,
} from '../../../generate/schedule-arbitrary.ts';
import { setInterval as setIntervalSpec } from '../../../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../../../model/world.ts';
import { renderLanes } from '../../../report/render-lanes.ts';
import { traceHash } from '../../../report/trace-hash.ts';
import { parseSchedule, type StepSchedule } from '../../../types/schedule.ts';
import type { TraceEntry } from '../../../types/scheduled-trace.ts';
import { chooseLane } from '../../schedule/choose-lane.ts';
import {
  busyTimeoutPragma,
  isRollback,
  isTransactionControl,
  isWriteText,
} from '../../schedule/statement-kind.ts';

describe('chooseLane', () => {
  it('0 keeps the last lane running; others rotate from it', () => {
    expect(chooseLane([0, 1, 2], 1, 0)).toBe(1);
    expect(chooseLane([0, 1, 2], 1, 1)).toBe(2);
    expect(chooseLane([0, 1, 2], 1, 2)).toBe(0);
    expect(chooseLane([0, 1, 2], 1, 5)).toBe(0);
  });
  it('when the last lane cannot run, 0 takes the next one after it', () => {
    expect(chooseLane([0, 2], 1, 0)).toBe(2);
    expect(chooseLane([0, 2], 3, 0)).toBe(0);
    expect(chooseLane([2, 0], undefined, 0)).toBe(0);
  });
});

describe('statement kinds', () => {
  it('tells transaction control, rollback and writes apart', () => {
    expect(isTransactionControl('  begin immediate')).toBe(true);
    expect(isTransactionControl('SELECT 1')).toBe(false);
    expect(isRollback('ROLLBACK')).toBe(true);
    expect(isRollback('ROLLBACK TO `x`')).toBe(false);
    expect(isWriteText('INSERT INTO t VALUES (1)')).toBe(true);
    expect(isWriteText('WITH x AS (SELECT 1) UPDATE t SET a = 1')).toBe(true);
    expect(isWriteText('SELECT * FROM t')).toBe(false);
  });
  it('keeps the busy timeout pragma apart', () => {
    expect(busyTimeoutPragma('busy_timeout = 250')).toEqual({ set: 250 });
    expect(busyTimeoutPragma('busy_timeout')).toEqual({});
    expect(busyTimeoutPragma('journal_mode = WAL')).toBeUndefined();
  });
});

const entries: TraceEntry[] = [
  { step: 0, lane: 0, point: 'start', grant: 'run', result: 'ok' },
  { step: 0, lane: 1, point: 'start', grant: 'run', chose: true },
  { step: 0, lane: 0, point: 'statement', grant: 'run', sql: 'BEGIN IMMEDIATE', result: 'ok' },
  { step: 0, lane: 1, point: 'statement', grant: 'run', sql: 'BEGIN IMMEDIATE', result: 'blocked' },
  {
    step: 0,
    lane: 0,
    point: 'statement',
    grant: 'run',
    sql: 'COMMIT',
    result: 'ok',
    durable: true,
  },
  { step: 0, lane: 1, point: 'reply', grant: 'crash' },
];

describe('traceHash and renderLanes', () => {
  it('the hash is stable and sees every field', () => {
    expect(traceHash(entries)).toBe(traceHash(entries.map((e) => ({ ...e }))));
    expect(traceHash(entries)).toMatch(/^[0-9a-f]{16}$/);
    const changed = entries.map((e, i) => (i === 3 ? { ...e, result: 'ok' } : e));
    expect(traceHash(changed)).not.toBe(traceHash(entries));
  });
  it('draws one column per lane, clipping statements but keeping markers', () => {
    const text = renderLanes(entries, { columnWidth: 24 });
    expect(text.split('\n')).toEqual([
      'step 1 · 2 lanes',
      '     #  lane 1                  lane 2',
      '     1  start',
      '     2                          start',
      '     3  BEGIN IMMEDIATE',
      '     4                          BEGIN IMMED… [blocked]',
      '     5  COMMIT [commit]',
      '     6                          [CRASH] before reply',
    ]);
  });
});

describe('scheduled cases', () => {
  const plain: StepSchedule = { choices: [3, 1] };
  const crash: StepSchedule = { choices: [], crash: { lane: 0, at: 2 } };

  it('a move that resolves to nothing takes its schedule entry with it', () => {
    const retryNothing: Move = { kind: 'retry', client: 0, pick: 0, delivery: 'delivered' };
    const intent: Move = {
      kind: 'intent',
      client: 0,
      target: 0,
      values: { intervalMinutes: 30 },
      version: 'known',
      delivery: 'delivered',
    };
    const c = resolveWithSchedule(
      DEFAULT_FIXTURE,
      [
        [retryNothing, plain],
        [intent, crash],
      ],
      { spec: setIntervalSpec },
    );
    expect(c.steps).toHaveLength(1);
    // A plain step has no decision to make, so its choices are dropped.
    expect(c.schedule).toEqual([crash]);
  });

  it('every generated case has one schedule entry per step, and parses back', () => {
    fc.assert(
      fc.property(
        scheduledCaseArbitrary(DEFAULT_FIXTURE, {
          spec: setIntervalSpec,
          stepsMax: 12,
          races: true,
          recreate: true,
        }),
        (c) => {
          expect(c.schedule).toHaveLength(c.steps.length);
          expect(parseSchedule(JSON.parse(JSON.stringify(c.schedule)))).toEqual({
            schedule: c.schedule,
          });
        },
      ),
      { numRuns: 200, seed: 5 },
    );
  });

  it('parseSchedule names a malformed entry', () => {
    expect(parseSchedule([{ choices: [0, -1] }])).toEqual({
      error: 'schedule entry 1: "choices" must be a list of non-negative integers',
    });
  });
});
