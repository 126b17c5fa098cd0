/**
 * The search's memo cache on (set of linearised entries, model state), porcupine's `cache`.
 *
 * Reaching the same pair twice means the same future, so the second visit is pruned. The set is
 * written compactly and exactly: the highest rank linearised so far plus the "holes", lower
 * ranks still waiting. Holes are entries concurrent with that highest one (anything that
 * returned before it was invoked must already be placed), so there are at most about as many as
 * clients, and finding them walks only the head of the list. Dropped calls are not in the set:
 * a placed one always wrote its receipt, so the state already says which ones were placed.
 */
import type { ModelState } from '../../model/state.ts';
import { sameState, stateHash } from '../../model/state-key.ts';
import { type EventList, HEAD, isCallNode, NIL, rankOf } from './event-list.ts';

/**
 * Pairs seen so far, bucketed by set key and state hash; hash hits are confirmed with `sameState`.
 * A search with a horizon (`search.ts`) keeps two generations: `older` is still looked up, and
 * `rotate` drops it. Forgetting a pair only costs pruning, never soundness: a pair is recorded
 * once its subtree is entered, and a pair not found is simply searched again.
 */
export interface Visited {
  buckets: Map<string, ModelState[]>;
  older: Map<string, ModelState[]> | undefined;
  size: number;
}

/** An empty cache. */
export function createVisited(): Visited {
  return { buckets: new Map(), older: undefined, size: 0 };
}

/** Drops the older generation and starts a new one; `size` counts what is left. */
export function rotate(visited: Visited): void {
  visited.older = visited.buckets;
  visited.buckets = new Map();
  let size = 0;
  for (const bucket of visited.older.values()) size += bucket.length;
  visited.size = size;
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

/** Records the pair and says whether it is new (false: seen before, prune this branch). */
export function visit(visited: Visited, setKey: string, state: ModelState): boolean {
  const key = `${setKey}#${stateHash(state)}`;
  const old = visited.older?.get(key);
  if (old) for (const seen of old) if (sameState(seen, state)) return false;
  const bucket = visited.buckets.get(key);
  if (!bucket) {
    visited.buckets.set(key, [state]);
  } else {
    for (const seen of bucket) if (sameState(seen, state)) return false;
    bucket.push(state);
  }
  visited.size++;
  return true;
}
