/**
 * The partitioning rule: what it keeps apart and what it must join, and the merges that put the
 * parts back together. Every "apart" case is shown beside the event that joins it.
 */
import { describe, expect, it } from 'vitest';
import { call, fresh, request, world } from '../../../testing/linearizability/fixture-builders.ts';
import type { Event } from '../../model/events.ts';
import type { History, HistoryEntry } from '../../model/history.ts';
import { setInterval as setIntervalSpec } from '../../model/operations/set-interval.ts';
import { initialState } from '../../model/state.ts';
import { run } from '../../model/step.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { mergeOrders } from './merge-orders.ts';
import { mergeStates } from './merge-states.ts';
import { partitionHistory } from './partition.ts';
import { sameState } from './same-state.ts';

const initial = initialState(DEFAULT_FIXTURE, setIntervalSpec);
const ids = (parts: HistoryEntry[][]) =>
  parts.map((p) => p.map((e) => e.id)).sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));

describe('partitionHistory', () => {
  const alice1 = call(0, 0, [0, 10], request('r1', 1, 1, 30));
  const bob2 = call(1, 1, [0, 10], request('r1', 2, 1, 30));
  const aliceB20 = call(2, 2, [0, 10], request('r1', 20, 1, 30));

  it('keeps calls on different rows under different keys apart (same request id, other user or workspace)', () => {
    expect(ids(partitionHistory(initial, [alice1, bob2, aliceB20]))).toEqual([[0], [1], [2]]);
  });

  it('joins calls that share a receipt key, even on different rows', () => {
    const alice2 = call(3, 0, [0, 10], request('r1', 2, 1, 45));
    expect(ids(partitionHistory(initial, [alice1, bob2, alice2]))).toEqual([[0, 1, 3]]);
  });

  it('joins calls that share a row, and the world events on it', () => {
    const bob1 = call(3, 1, [0, 10], request('r9', 1, 1, 45));
    const move = world(4, [0, 1], { kind: 'move', resourceId: 20, workspace: 'team-a' });
    expect(ids(partitionHistory(initial, [alice1, bob2, aliceB20, bob1, move]))).toEqual([
      [0, 3],
      [1],
      [2, 4],
    ]);
  });

  it('joins every valid call once the store can fail', () => {
    const fail = world(3, [0, 1], { kind: 'storeFail' });
    expect(ids(partitionHistory(initial, [alice1, bob2, aliceB20, fail]))).toEqual([[0, 1, 2, 3]]);
  });

  it('joins one principal’s calls, valid or not, once its scope can change', () => {
    const invalid = call(3, 0, [0, 10], request('', 2, 1, 30));
    const revoke = world(4, [0, 1], { kind: 'revoke', client: 0 });
    const aliceOn2 = call(5, 0, [0, 10], request('r5', 2, 1, 30));
    expect(ids(partitionHistory(initial, [alice1, bob2, invalid, aliceOn2]))).toEqual([
      [0],
      [1, 5],
      [3],
    ]);
    expect(ids(partitionHistory(initial, [alice1, bob2, invalid, revoke, aliceOn2]))).toEqual([
      [0, 1, 3, 4, 5],
    ]);
  });

  it('puts lost requests and invalid calls with nothing to share into one loose part', () => {
    const lost = call(3, 0, [0, 10], request('r1', 1, 1, 30), undefined, 'lostRequest');
    const invalid = call(4, 1, [0, 10], request('r1', 1, 1, 3));
    expect(ids(partitionHistory(initial, [bob2, lost, invalid]))).toEqual([[1], [3, 4]]);
  });

  it('falls back to one part for an event kind it does not know', () => {
    const strange = { ...alice1, id: 3, event: { kind: 'reindex' } as unknown as Event };
    expect(ids(partitionHistory(initial, [alice1, bob2, strange]))).toEqual([[0, 1, 3]]);
  });
});

describe('merging parts back', () => {
  const history: History = [
    call(0, 0, [0, 10], request('r1', 1, 1, 30), fresh(1, 30, 2)),
    call(1, 2, [2, 4], request('r1', 20, 1, 45), fresh(20, 45, 2)),
    world(2, [5, 6], { kind: 'delete', resourceId: 20 }),
    call(3, 0, [11, 12], request('r2', 1, 2, 60), fresh(1, 60, 3)),
  ];
  const byId = new Map(history.map((e) => [e.id, e]));

  it('merges orders by invocation time, which respects real time', () => {
    const part = (order: number[]) => ({
      order,
      invokedAt: Float64Array.from(order, (id) => byId.get(id)?.invokedAt ?? 0),
    });
    expect(mergeOrders([part([0, 3]), part([1, 2])])).toEqual([0, 1, 2, 3]);
  });

  it('merges final states to what replaying the merged order gives', () => {
    const part = (order: number[]) =>
      run(
        initial,
        order.map((id) => byId.get(id)?.event as Event),
      ).state;
    const merged = mergeStates(initial, [part([0, 3]), part([1, 2])], () => []);
    const replayed = run(
      initial,
      [0, 1, 2, 3].map((id) => byId.get(id)?.event as Event),
    ).state;
    expect(sameState(merged, replayed)).toBe(true);
    expect(merged.rows.has(20)).toBe(false);
    expect(merged.receipts.size).toBe(3);
  });
});
