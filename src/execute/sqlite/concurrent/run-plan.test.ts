/**
 * The plan of a concurrent run, pure: which phases it has, which worker runs what in each, where
 * every operation's reply will be, and when a lost request in a group is stamped.
 */
import { describe, expect, it } from 'vitest';
import { call, together } from '../../../../testing/concurrent-runners.ts';
import type { Event, Step } from '../../../model/events.ts';
import type { GateRef, ScriptItem } from './protocol.ts';
import { planRun } from './run-plan.ts';

/** Items that name their event by request id (or world event kind), gate and all. */
const itemOf = (event: Event, gate?: GateRef): ScriptItem | undefined => {
  if (event.kind === 'call' && event.delivery === 'lostRequest') return undefined;
  const name = event.kind === 'call' ? event.request.requestId : event.kind;
  return { name, ...(gate ? { gate } : {}) } as unknown as ScriptItem;
};
const names = (items: readonly ScriptItem[]) =>
  items.map((i) => ('name' in i ? (i as { name: string }).name : i.type));
const lost = (id: string) => call(id, 1, 30, { delivery: 'lostRequest' });
const move: Event = { kind: 'move', resourceId: 1, workspace: 'team-b' };

describe('planRun', () => {
  it('runs the plain steps between groups as one phase on worker 0, a lost request stamped there', () => {
    const steps: Step[] = [
      call('a', 1, 30),
      lost('b'),
      move,
      together(call('c', 1, 30), call('d', 1, 45)),
      call('e', 1, 60),
    ];
    const plan = planRun(steps, 4, itemOf);
    expect(plan.phases).toBe(3);
    expect(plan.scripts).toHaveLength(2);
    const [zero, one] = plan.scripts;
    expect(zero?.map((p) => [p.phase, p.parties, names(p.items)])).toEqual([
      [0, 1, ['a', 'stamp', 'move']],
      [1, 2, ['c']],
      [2, 1, ['e']],
    ]);
    expect(one?.map((p) => [p.phase, p.parties, names(p.items)])).toEqual([[1, 2, ['d']]]);
    expect(plan.ops.map((o) => [o.step, o.lane, o.at?.slot, o.at?.index])).toEqual([
      [0, 0, 0, 0],
      [1, 0, 0, 1],
      [2, 0, 0, 2],
      [3, 0, 0, 3],
      [3, 1, 1, 0],
      [4, 0, 0, 4],
    ]);
  });

  it('releases a group through one gate for all its lanes', () => {
    const plan = planRun(
      [together(call('a', 1, 30), call('b', 1, 30), call('c', 1, 30))],
      4,
      itemOf,
    );
    const gates = plan.scripts.map((s) => (s[0]?.items[0] as { gate?: GateRef } | undefined)?.gate);
    expect(gates).toHaveLength(3);
    expect(new Set(gates.map((g) => g?.buffer)).size).toBe(1);
    expect(gates[0]).toMatchObject({ parties: 3 });
  });

  it('gives a lone lane no gate, and leaves a lost request in a group to be stamped at its phase end', () => {
    const plan = planRun([call('a', 1, 30), together(lost('b'), call('c', 1, 30))], 4, itemOf);
    expect(plan.scripts).toHaveLength(1);
    expect(plan.scripts[0]?.[1]).toEqual({ phase: 1, parties: 1, items: [{ name: 'c' }] });
    expect(plan.ops[1]).toEqual({ step: 1, lane: 0, event: lost('b'), stampedAfter: 1 });
    expect(plan.ops[2]).toMatchObject({ step: 1, lane: 1, at: { slot: 0, index: 1 } });
  });

  it('splits a group larger than the pool into waves, one phase each, lanes numbered across them', () => {
    const group = together(call('a', 1, 30), call('b', 1, 30), call('c', 1, 30));
    const plan = planRun([group], 2, itemOf);
    expect(plan.phases).toBe(2);
    expect(plan.scripts[0]?.map((p) => [p.phase, p.parties, names(p.items)])).toEqual([
      [0, 2, ['a']],
      [1, 1, ['c']],
    ]);
    expect(plan.scripts[1]?.map((p) => [p.phase, p.parties, names(p.items)])).toEqual([
      [0, 2, ['b']],
    ]);
    expect(plan.ops.map((o) => [o.lane, o.at?.slot])).toEqual([
      [0, 0],
      [1, 1],
      [2, 0],
    ]);
  });

  it('makes no phase of a wave that reaches no worker: its lost requests stand after the phase before', () => {
    const plan = planRun([together(lost('a'), lost('b')), call('c', 1, 30)], 4, itemOf);
    expect(plan.phases).toBe(1);
    expect(plan.ops.slice(0, 2).map((o) => o.stampedAfter)).toEqual([-1, -1]);
    expect(plan.scripts[0]).toEqual([{ phase: 0, parties: 1, items: [{ name: 'c' }] }]);
  });

  it('refuses a pool of no workers', () => {
    expect(() => planRun([], 0, itemOf)).toThrow(RangeError);
  });
});
