/**
 * The memo cache (`visited.ts`), which writes a pair down when the search leaves its subtree
 * rather than when it enters it: it must still prune every order that reaches a failed pair
 * again, keep a failed pair only while the generation it was entered in lives, and count the
 * pairs entered, as a cache recording on entry held them, for `statesMax`. The verdicts and
 * witnesses are the other tests' business (`brute-force.test.ts`).
 */
import { describe, expect, it } from 'vitest';
import { call, fresh, request } from '../../../testing/linearizability/fixture-builders.ts';
import type { HistoryEntry } from '../../model/history.ts';
import { setInterval as setIntervalSpec } from '../../model/operations/set-interval.ts';
import { initialState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { checkHistory } from './check-history.ts';
import { syntheticHistory } from './synthetic-history.ts';
import { createVisited, enter, fail, rotate } from './visited.ts';

const initial = initialState(DEFAULT_FIXTURE, setIntervalSpec);
const written = step(initial, {
  kind: 'call',
  client: 0,
  request: request('w', 1, 1, 30),
  delivery: 'delivered',
}).state;
const key = (rank: number) => `${rank},0`;

describe('the memo cache', () => {
  it('prunes every order that reaches a failed pair again', () => {
    // Twelve concurrent calls that change nothing (a stale version, outcome not recorded), then
    // one that no order explains: 12! orders, but only 2^12 sets of placed calls.
    const calls: HistoryEntry[] = Array.from({ length: 12 }, (_, i) =>
      call(i, 0, [0, 10], request(`s${i}`, 1, 9, 30)),
    );
    const impossible = call(12, 0, [20, 21], request('x', 1, 1, 30), fresh(1, 30, 99));
    // Without the memo this takes hundreds of millions of steps; with it, about 12 × 2^12.
    const result = checkHistory(initial, [...calls, impossible], { stepsMax: 100_000 });
    expect(result.verdict).toBe('illegal');
  });

  it('finds a failed pair by its key and state, and only that pair', () => {
    const visited = createVisited();
    expect(enter(visited, 3, key, written)).toBe(true);
    fail(visited, visited.generation, 3, key(3), written);
    expect(enter(visited, 3, key, written)).toBe(false);
    expect(enter(visited, 3, key, initial)).toBe(true);
    expect(enter(visited, 3, (rank) => `${rank},1`, written)).toBe(true);
    expect(enter(visited, 4, () => `3,0`, written)).toBe(true);
  });

  it('keeps a failed pair while the generation it was entered in lives', () => {
    const visited = createVisited();
    const entered = visited.generation;
    expect(enter(visited, 3, key, written)).toBe(true);
    rotate(visited);
    // Its subtree failed after one rotation: it is recorded in the older generation.
    fail(visited, entered, 3, key(3), written);
    expect(enter(visited, 3, key, written)).toBe(false);
    rotate(visited);
    expect(enter(visited, 3, key, written)).toBe(true);
    // A pair whose generation is gone is not recorded at all.
    fail(visited, entered, 3, key(3), written);
    expect(enter(visited, 3, key, written)).toBe(true);
  });

  it('counts the pairs entered in the two live generations, failed or not', () => {
    const visited = createVisited();
    for (let rank = 0; rank < 5; rank++) enter(visited, rank, key, written);
    expect(visited.size).toBe(5);
    rotate(visited);
    enter(visited, 9, key, written);
    expect(visited.size).toBe(6);
    rotate(visited);
    expect(visited.size).toBe(1);
  });

  it('stops a search at statesMax though it never backtracks', () => {
    const { initial: start, history } = syntheticHistory({ seed: 3, entries: 5000, clients: 4 });
    expect(checkHistory(start, history).verdict).toBe('ok');
    expect(checkHistory(start, history, { statesMax: 10 })).toMatchObject({
      verdict: 'unknown',
      reason: expect.stringMatching(/statesMax/),
    });
  });
});
