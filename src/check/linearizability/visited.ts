/**
 * The search's memo cache on (set of linearised entries, model state), porcupine's `cache`.
 *
 * Reaching the same pair twice means the same future, so the second visit is pruned. The set is
 * written compactly and exactly: the highest rank linearised so far plus the "holes", lower
 * ranks still waiting. Holes are entries concurrent with that highest one (anything that
 * returned before it was invoked must already be placed), so there are at most about as many as
 * clients, and finding them walks only the head of the list. Dropped calls are not in the set:
 * a placed one always wrote its receipt, so the state already says which ones were placed.
 *
 * A pair is written down when the search leaves its subtree, not when it enters it. Within its
 * own subtree a pair never comes round again (every step down adds a required entry to the set,
 * or a dropped call that grows the state), so a pair entered can only be met again after its
 * subtree was left, having failed: recording it then prunes exactly what recording it on entry
 * did. A search that rarely backtracks (a soak's million calls backtrack a few hundred times)
 * then builds no key, hashes no state and keeps no state alive for the cache; a visit only looks
 * for records of the same highest rank, and builds the key and hashes the state when one exists.
 */
import type { ModelState } from '../../model/state.ts';
import { type EventList, HEAD, isCallNode, NIL, rankOf } from './event-list.ts';
import { sameState } from './same-state.ts';
import { stateHash } from './state-hash.ts';

/** One failed pair: its set key, its state's hash and the state. */
interface Failed {
  readonly key: string;
  readonly hash: number;
  readonly state: ModelState;
}

/**
 * Failed pairs, by the highest rank of their set. A search with a horizon (`search.ts`) keeps two
 * generations: `older` is still looked up, and `rotate` drops it. Forgetting a pair only costs
 * pruning, never soundness: a pair not found is simply searched again.
 */
export interface Visited {
  current: Map<number, Failed[]>;
  older: Map<number, Failed[]> | undefined;
  /** Counts the rotations; a pair is recorded in the generation it was entered in. */
  generation: number;
  /**
   * The pairs entered in the current and the previous generation: what a cache recording each
   * pair on entry would hold, so that `statesMax` stops a search exactly where it did then.
   */
  size: number;
  enteredNow: number;
}

/** An empty cache. */
export function createVisited(): Visited {
  return { current: new Map(), older: undefined, generation: 0, size: 0, enteredNow: 0 };
}

/** Drops the older generation and starts a new one; `size` counts what is left. */
export function rotate(visited: Visited): void {
  visited.older = visited.current;
  visited.current = new Map();
  visited.generation++;
  visited.size = visited.enteredNow;
  visited.enteredNow = 0;
}

/**
 * The exact key of the set of required entries linearised so far, given the highest rank among
 * them; reads the list, so call it when the list reflects that set.
 */
export function linearisedKey(list: EventList, maxRank: number): string {
  let key = String(maxRank);
  for (
    let node = list.next[HEAD] as number;
    node !== NIL && isCallNode(node);
    node = list.next[node] as number
  ) {
    const rank = rankOf(node);
    if (rank > maxRank) break;
    key += `,${rank}`;
  }
  return key;
}

/**
 * Whether the pair is new (false: its subtree failed before, prune this branch); a new pair is
 * counted as entered. `key(maxRank)` gives the set key of the pair, whose highest rank is
 * `maxRank`; it is called only when a failed pair of that rank is on record.
 */
export function enter(
  visited: Visited,
  maxRank: number,
  key: (maxRank: number) => string,
  state: ModelState,
): boolean {
  const now = visited.current.get(maxRank);
  const old = visited.older?.get(maxRank);
  if (now !== undefined || old !== undefined) {
    const k = key(maxRank);
    const h = stateHash(state);
    if (now !== undefined && recorded(now, k, h, state)) return false;
    if (old !== undefined && recorded(old, k, h, state)) return false;
  }
  visited.size++;
  visited.enteredNow++;
  return true;
}

/**
 * Records that the subtree of a pair entered in `generation` failed (a no-op once that
 * generation is dropped). `key` is its set key, `maxRank` the highest rank of its set.
 */
export function fail(
  visited: Visited,
  generation: number,
  maxRank: number,
  key: string,
  state: ModelState,
): void {
  const into =
    generation === visited.generation
      ? visited.current
      : generation === visited.generation - 1
        ? visited.older
        : undefined;
  if (into === undefined) return;
  const failed: Failed = { key, hash: stateHash(state), state };
  const list = into.get(maxRank);
  if (list === undefined) into.set(maxRank, [failed]);
  else list.push(failed);
}

function recorded(list: readonly Failed[], key: string, hash: number, state: ModelState): boolean {
  for (const f of list)
    if (f.hash === hash && f.key === key && sameState(f.state, state)) return true;
  return false;
}
