/**
 * Case-file expectations in pass/fail pairs: the article's promise about a race holds for a trace
 * that keeps it and is reported for one that does not; the same for single outcomes and the
 * final state.
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent } from '../model/events.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import type { Observed } from '../model/outcome.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import { parseCaseFile } from '../report/case-file.ts';
import type { Trace } from '../types/trace.ts';
import { checkExpectations, checkModelAgainstCase } from './expectations.ts';

const call = (minutes: number): CallEvent => ({
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  request: { requestId: 'k', automationId: 1, expectedVersion: 1, intervalMinutes: minutes },
});
const mismatch = parseCaseFile(
  JSON.stringify({
    format: 'receiptcheck-case/1',
    steps: [
      {
        kind: 'concurrent',
        events: [call(30), call(60)],
        expectAnyOrder: [{ kind: 'ok', replayed: false }, { kind: 'keyReuse' }],
      },
    ],
    expectFinal: { receipts: 1 },
  }),
  'mismatch.json',
);
const fresh = (minutes: number): Observed => ({
  kind: 'ok',
  replayed: false,
  result: { id: 1, intervalMinutes: minutes, version: 2 },
});
const trace = (a: Observed, b: Observed, receipts: number): Trace => ({
  observations: [
    { step: 0, lane: 0, event: call(30), observed: a },
    { step: 0, lane: 1, event: call(60), observed: b },
  ],
  snapshot: {
    automations: DEFAULT_FIXTURE.automations,
    receipts: Array.from({ length: receipts }, () => ({
      workspace: 'team-a',
      user: 'alice',
      tool: 't',
      requestId: 'k',
      payload: { id: 1, version: 1, interval: 30 },
      result: { id: 1, intervalMinutes: 30, version: 2 },
    })),
  },
});

describe('expectations', () => {
  it('ok: either winner with the other as key reuse', () => {
    expect(
      checkExpectations(mismatch, setIntervalSpec, trace(fresh(30), { kind: 'keyReuse' }, 1)),
    ).toEqual([]);
    expect(
      checkExpectations(mismatch, setIntervalSpec, trace({ kind: 'keyReuse' }, fresh(60), 1)),
    ).toEqual([]);
  });

  it('bad: two winners, and two receipts', () => {
    const failures = checkExpectations(mismatch, setIntervalSpec, trace(fresh(30), fresh(60), 2));
    expect(failures.map((f) => f.message)).toEqual([
      expect.stringMatching(/^step 1: expected, in any order/),
      'expected 1 receipt(s) at the end, found 2',
    ]);
  });

  it('the model keeps the race promise when the group runs in lane order', () => {
    expect(checkModelAgainstCase(mismatch, setIntervalSpec)).toEqual([]);
  });
});
