/**
 * The model's word on whether a concurrent group conflicts: a duplicate (the second replays),
 * two debits that cross the balance together, two writes of one row conflict; calls on different
 * rows, calls refused alike, and a write beside a call refused either way, do not. And generated groups conflict more often than they did,
 * and reuse one key on two rows of the caller at once, each call of which would write alone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CallEvent, Event } from '../model/events.ts';
import { targetRows } from '../model/operation.ts';
import { adjustBalance } from '../model/operations/adjust-balance.ts';
import { setInterval } from '../model/operations/set-interval.ts';
import { initialState, type ModelState } from '../model/state.ts';
import { step } from '../model/step.ts';
import { groupConflicts } from './group-conflicts.ts';
import { sequenceArbitrary } from './sequence-arbitrary.ts';

const fixture = { ...adjustBalance.fixture, operation: adjustBalance.name };
const state = initialState(fixture, adjustBalance);
const debit = (client: number, requestId: string, accountId: number, delta: number): CallEvent => ({
  kind: 'call',
  client,
  request: { requestId, accountId, delta },
  delivery: 'delivered',
  intent: 'new',
});

describe('groupConflicts', () => {
  it.each([
    ['a duplicate', [debit(0, 'r1', 1, -5), debit(0, 'r1', 1, -5)], true],
    [
      'two debits that cross the balance together',
      [debit(0, 'r1', 1, -700), debit(1, 'r2', 1, -400)],
      true,
    ],
    ['two writes of one row', [debit(0, 'r1', 1, 10), debit(1, 'r2', 1, 20)], true],
    [
      'a call and the revoke that refuses it',
      [debit(0, 'r1', 1, 10), { kind: 'revoke', client: 0 }],
      true,
    ],
    ['calls on different rows', [debit(0, 'r1', 1, -700), debit(1, 'r2', 2, -700)], false],
    ['calls refused alike', [debit(0, 'r1', 1, -5000), debit(1, 'r2', 1, -6000)], false],
    [
      'a write beside a call its row refuses either way',
      [debit(0, 'r1', 1, 10), debit(1, 'r2', 1, -5000)],
      false,
    ],
  ] as [string, Event[], boolean][])('%s', (_name, events, conflicts) => {
    expect(groupConflicts(state, events)).toBe(conflicts);
  });
});

describe('generated groups', () => {
  it('conflict in most groups (44% before the generators sought conflicts)', () => {
    const arbitrary = sequenceArbitrary(fixture, {
      spec: adjustBalance,
      stepsMax: 20,
      races: true,
      recreate: true,
    });
    let [groups, conflicting] = [0, 0];
    for (const steps of fc.sample(arbitrary, { seed: 1, numRuns: 200 })) {
      let s = initialState(fixture, adjustBalance);
      for (const st of steps) {
        if (st.kind === 'concurrent') {
          groups++;
          if (groupConflicts(s, st.events)) conflicting++;
        }
        for (const e of st.kind === 'concurrent' ? st.events : [st]) s = step(s, e).state;
      }
    }
    expect(groups).toBeGreaterThan(100);
    expect(conflicting / groups).toBeGreaterThan(0.5);
  });

  it('reuse one key on two rows of the caller at once, each call writing alone, which only a lock on the key orders', () => {
    // Two first attempts under one key on different rows share no row lock: a handler that locks
    // only the row lets both write, and one insert of the receipt fails instead of a key reuse.
    const arbitrary = sequenceArbitrary(setIntervalFixture, {
      spec: setInterval,
      stepsMax: 20,
      races: true,
      recreate: true,
    });
    let [found, bothWrite] = [0, 0];
    for (const steps of fc.sample(arbitrary, { seed: 1, numRuns: 300 })) {
      let s = initialState(setIntervalFixture, setInterval);
      for (const st of steps) {
        const events = st.kind === 'concurrent' ? st.events : [st];
        const [a, b] = events.filter((e): e is CallEvent => e.kind === 'call');
        if (
          st.kind === 'concurrent' &&
          a &&
          b &&
          a.client === b.client &&
          a.request.requestId === b.request.requestId &&
          a.request.automationId !== b.request.automationId &&
          [a, b].every((c) => ownRow(c))
        ) {
          found++;
          // The race shows only when each call alone would write: a stale expected version
          // refuses one of them before it ever reaches the receipt's insert.
          if ([a, b].every((c) => writesAlone(s, c))) bothWrite++;
        }
        for (const e of events) s = step(s, e).state;
      }
    }
    expect(found).toBeGreaterThan(5);
    expect(bothWrite / found).toBeGreaterThan(0.75);
  });
});

const setIntervalFixture = { ...setInterval.fixture, operation: setInterval.name };

/** Whether `call`, alone from `state`, gets a fresh answer (it writes its row and its receipt). */
function writesAlone(state: ModelState, call: CallEvent): boolean {
  const o = step(state, call).outcome;
  return o?.kind === 'ok' && !o.replayed;
}

/** Whether the call names a row in its principal's workspace (so it reaches the receipt). */
function ownRow(c: CallEvent): boolean {
  const workspace = setIntervalFixture.principals[c.client]?.workspace;
  return targetRows(setIntervalFixture, setInterval).some(
    (a) => a.id === c.request.automationId && a.workspace === workspace,
  );
}
