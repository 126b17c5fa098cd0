/**
 * The event list against a plain sort: every node of the entries that must take effect, ordered
 * by (time, call before return, rank), and the droppable calls by (invocation, id). The list is
 * built without sorting a history already in order and merges returns through a heap; this
 * shows both give exactly the sorted order, on histories in any order, with equal times, touching
 * intervals and entries that never return.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../model/history.ts';
import { buildEventList, HEAD, NIL } from './event-list.ts';

const entryArb = fc.record({
  invokedAt: fc.integer({ min: 0, max: 12 }),
  length: fc.integer({ min: 0, max: 6 }),
  // 0: completion and outcome unknown (droppable call), 1: never returned but observed, else done.
  shape: fc.integer({ min: 0, max: 5 }),
  world: fc.boolean(),
});

type Drawn = { invokedAt: number; length: number; shape: number; world: boolean };

function historyOf(drawn: readonly Drawn[], ids: readonly number[]): HistoryEntry[] {
  return drawn.map((d, i) => {
    const id = ids[i] as number;
    const event = d.world
      ? ({ kind: 'storeFail' } as const)
      : ({
          kind: 'call',
          client: 0,
          request: {
            requestId: `r${id}`,
            automationId: 1,
            expectedVersion: 1,
            intervalMinutes: 30,
          },
          delivery: 'delivered',
        } as const);
    const base = { id, client: 0, event, invokedAt: d.invokedAt };
    if (d.shape === 0) return d.world ? { ...base, completedAt: d.invokedAt } : base;
    if (d.shape === 1) return { ...base, observed: { kind: 'notSent' } as const };
    return { ...base, completedAt: d.invokedAt + d.length };
  });
}

/** The list's nodes from the head, in order. */
function walk(next: Int32Array): number[] {
  const nodes: number[] = [];
  for (let node = next[HEAD] as number; node !== NIL; node = next[node] as number) nodes.push(node);
  return nodes;
}

describe('buildEventList', () => {
  it('orders nodes as a sort by (time, call first, rank) does, in any input order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(entryArb, fc.nat()), { minLength: 0, maxLength: 30 }),
        fc.boolean(),
        (drawn, shuffled) => {
          // Ids are not indices, and the input is in any order when shuffled.
          const history = historyOf(
            drawn.map(([d]) => d),
            drawn.map((_, i) => 3 * i + 1),
          );
          const input = shuffled
            ? history
                .map((e, i) => ({ e, key: drawn[i]?.[1] ?? 0 }))
                .sort((x, y) => x.key - y.key)
                .map(({ e }) => e)
            : history;
          const list = buildEventList(input);

          const byInvocation = (a: HistoryEntry, b: HistoryEntry) =>
            a.invokedAt - b.invokedAt || a.id - b.id;
          const droppable = (e: HistoryEntry) =>
            e.event.kind === 'call' && e.completedAt === undefined && e.observed === undefined;
          const required = input.filter((e) => !droppable(e)).sort(byInvocation);
          expect(list.required.map((e) => e.id)).toEqual(required.map((e) => e.id));
          expect(list.droppable.map((e) => e.id)).toEqual(
            input
              .filter(droppable)
              .sort(byInvocation)
              .map((e) => e.id),
          );

          const nodes = required.flatMap((e, r) => [
            { node: 2 * r + 1, time: e.invokedAt, call: 0, r },
            { node: 2 * r + 2, time: e.completedAt ?? Number.POSITIVE_INFINITY, call: 1, r },
          ]);
          nodes.sort(
            (a, b) => (a.time === b.time ? 0 : a.time - b.time) || a.call - b.call || a.r - b.r,
          );
          expect(walk(list.next)).toEqual(nodes.map((n) => n.node));
          for (const n of nodes) expect(list.time[n.node]).toBe(n.time);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
