/**
 * The linearizability search for one independent part of a history: Wing & Gong's depth-first
 * search with Lowe's memoisation, as in porcupine's `checkSingle`.
 *
 * At each level the candidates for "next" are the entries whose call node precedes the first
 * return node in the event list (nothing still open finished before they started). The search
 * steps the model over a candidate; if the outcome matches what was observed and the resulting
 * (linearised set, state) pair is new, it lifts the entry and goes one level deeper, otherwise
 * it tries the next candidate. With none left it backtracks. Success: every required entry
 * placed (and `acceptFinal` holds).
 *
 * Reductions that keep long histories near-linear, even when the answer is "illegal":
 *
 * - Inert entries first (`entry-rules.ts`). If a call whose observed outcome never writes fits
 *   now, a linearisation from here exists only if one starts with it: moving it to the front of
 *   any witness leaves every later step with the same state. So the level commits to it, and
 *   its node is not cached (the chain of such steps is deterministic; the next choice is).
 * - Droppable calls (completion and outcome unknown) are tried after the required candidates of
 *   a level, and only when they would change the state: placing one that changes nothing never
 *   helps, and leaving it out equals it happening after everything. Those that never can again
 *   leave the scan (`droppable-pool.ts`), and the one just placed must be followed by something
 *   it interferes with (`interference.ts`). A lost response is thus placed just in time.
 */
import type { Event } from '../../model/events.ts';
import type { HistoryEntry } from '../../model/history.ts';
import type { ModelState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { type Budget, exhausted } from './budget.ts';
import { createDroppablePool, NO_CALL, pruneIfDead, restoreDeeperThan } from './droppable-pool.ts';
import { fits, inFlightTransition, isInert } from './entry-rules.ts';
import { buildEventList, HEAD, isCallNode, lift, NIL, rankOf, unlift } from './event-list.ts';
import { droppablesInterfere, interferes } from './interference.ts';
import { candidates, findInert } from './level-candidates.ts';
import { beats, createLongestPrefix, keep, notePop } from './longest-prefix.ts';
import {
  Chosen,
  type ChosenKind,
  createSearchPath,
  frameId,
  pathIds,
  popFrame,
  pushFrame,
  releaseState,
  top,
} from './search-path.ts';
import { createVisited, enter, fail, linearisedKey, rotate } from './visited.ts';

/** The verdict on one part: like `LinearizabilityResult` but without the partition. */
export type PartResult =
  | {
      readonly verdict: 'ok';
      readonly order: number[];
      /** Invocation time of each entry of `order`, for merging parts. */
      readonly invokedAt: Float64Array;
      readonly finalState: ModelState;
    }
  | {
      readonly verdict: 'illegal';
      readonly longestPrefix: number[];
      readonly stuck: number[];
      readonly stateAfterPrefix: ModelState;
    }
  | { readonly verdict: 'unknown'; readonly reason: string }
  /** The search had to backtrack past its horizon: only a search without one can answer. */
  | { readonly verdict: 'beyondHorizon' };

/**
 * Searches for a linearisation of `entries` from `initial`, spending from the shared budget.
 * `inFlight` holds the ids that may carry an in-flight answer (`in-flight.ts`).
 *
 * With a `horizon` (frames), the path keeps only its last `horizon` states and the memo two
 * generations of `horizon` levels each, so a long history that needs no deep backtracking is
 * checked in memory that does not grow with its length. An `ok` or `illegal` found so is exact
 * (the memo only ever forgets, which costs pruning, not soundness); a backtrack past the
 * horizon gives `beyondHorizon`, and the caller searches again without one.
 */
export function searchPart(
  initial: ModelState,
  entries: readonly HistoryEntry[],
  budget: Budget,
  inFlight: ReadonlySet<number>,
  horizon = Number.POSITIVE_INFINITY,
): PartResult {
  const list = buildEventList(entries);
  const { required, events, expected, droppable, droppableInvokedAt, next, time } = list;
  const policy = initial.policy;
  // Filled by index: `Uint8Array.from` with a map function walks an iterator, an object per entry.
  const mayFly = new Uint8Array(required.length);
  const inert = new Uint8Array(required.length);
  const anyFly = inFlight.size > 0; // most policies answer no call as in flight: no lookups then
  for (let r = 0; r < required.length; r++) {
    mayFly[r] = anyFly && inFlight.has((required[r] as HistoryEntry).id) ? 1 : 0;
    inert[r] = isInert(expected[r], policy, mayFly[r] === 1) ? 1 : 0;
  }
  // Under storesRefusals a placed droppable call is not implied by the state, so it joins the key.
  const keyDroppables = policy.storesRefusals;
  const accept = budget.options.acceptFinal;
  const visited = createVisited();
  const longest = createLongestPrefix();
  const path = createSearchPath(required.length + droppable.length);
  const placed = new Uint8Array(droppable.length);
  const placedOrder: number[] = [];
  let state = initial;
  let maxRank = -1;
  let node = NIL;
  const pool = createDroppablePool(droppable, events, initial);
  let dropFrom = -1; // ≥ 0 while scanning droppable calls: the scan goes on after this one
  let levelStart = true;
  let justAfter = NO_CALL; // the droppable call placed last, if the top frame is one
  let deepest = 0; // the longest the path has been
  let beyond = false; // set when backtracking reached a released state

  /** After a push: release the state that fell behind the horizon, and age the memo. */
  const pushed = (): void => {
    const depth = path.depth;
    if (depth > horizon) releaseState(path, depth - 1 - horizon);
    if (depth > deepest) {
      deepest = depth;
      if (depth % horizon === 0) rotate(visited);
    }
  };

  const setKey = (rank: number): string =>
    keyDroppables && placedOrder.length > 0
      ? `${linearisedKey(list, rank)}|${[...placedOrder].sort((a, b) => a - b).join(',')}`
      : linearisedKey(list, rank);

  const droppedKey = (rank: number, d: number): string => `${setKey(rank)}!${d}`;

  const tryRequired = (at: number, kind: ChosenKind, to: ModelState): boolean => {
    const rank = rankOf(at);
    const deeper = Math.max(rank, maxRank);
    lift(list, at);
    // Forced steps are not cached: their chains are deterministic, and the next choice is cached.
    if (kind === Chosen.forced || enter(visited, deeper, setKey, to)) {
      pushFrame(path, kind, at, state, maxRank, NIL, visited.generation);
      pushed();
      state = to;
      maxRank = deeper;
      levelStart = true;
      justAfter = NO_CALL;
      return true;
    }
    unlift(list, at);
    return false;
  };

  const tryScanned = (at: number): boolean => {
    const rank = rankOf(at);
    if (justAfter !== NO_CALL && !interferes(initial, events[rank] as Event, pool, justAfter)) {
      return false;
    }
    budget.steps++;
    const t = step(state, events[rank] as Event);
    const modelFits = fits(expected[rank], t);
    const alternative = mayFly[rank] === 1 && !(modelFits && t.state === state);
    if (
      modelFits &&
      tryRequired(at, alternative ? Chosen.scanWithAlternative : Chosen.scan, t.state)
    )
      return true;
    return alternative && tryRequired(at, Chosen.scan, inFlightTransition(state).state);
  };

  const tryDroppables = (): boolean => {
    const limit = node === NIL ? Number.POSITIVE_INFINITY : (time[node] as number);
    for (let d = pool.next[dropFrom] as number; d !== NO_CALL; d = pool.next[d] as number) {
      if ((droppableInvokedAt[d] as number) > limit) return false;
      if (placed[d] || pruneIfDead(pool, d, state, path.depth)) continue;
      // Lost calls placed back to back: a non-interfering pair commutes, so one order (by pool
      // index) suffices; the block's last call must still interfere with what follows it.
      if (justAfter !== NO_CALL && d < justAfter && !droppablesInterfere(pool, justAfter, d)) {
        continue;
      }
      const entry = droppable[d] as HistoryEntry;
      budget.steps++;
      const t = step(state, entry.event);
      if (t.state === state) continue;
      placedOrder.push(d);
      // The node after a droppable call is searched under its just-in-time rule: key it apart.
      if (enter(visited, maxRank, (rank) => droppedKey(rank, d), t.state)) {
        placed[d] = 1;
        pushFrame(path, Chosen.droppable, d, state, maxRank, node, visited.generation);
        pushed();
        state = t.state;
        levelStart = true;
        justAfter = d;
        return true;
      }
      placedOrder.pop();
    }
    return false;
  };

  /** Undoes frames up to a level with untried candidates; false when there is none. */
  const backtrack = (): boolean => {
    if (beats(longest, path.depth)) {
      keep(longest, (i) => frameId(path, list, i), path.depth, candidates(list, required), state);
    }
    levelStart = false;
    for (let i = top(path); i >= 0; i = top(path)) {
      const kind = path.kinds[i] as ChosenKind;
      const mark = path.marks[i] as number;
      const blocker = path.blockers[i] as number;
      const before = path.states[i];
      if (before === undefined) {
        beyond = true;
        return false;
      }
      // Everything after this frame failed: its pair goes on record (see `visited.ts`).
      if (kind !== Chosen.forced) {
        const key = kind === Chosen.droppable ? droppedKey(maxRank, mark) : setKey(maxRank);
        fail(visited, path.generations[i] as number, maxRank, key, state);
      }
      state = before;
      maxRank = path.maxRanks[i] as number;
      popFrame(path);
      notePop(longest, path.depth);
      restoreDeeperThan(pool, path.depth);
      const below = top(path);
      justAfter =
        below >= 0 && path.kinds[below] === Chosen.droppable
          ? (path.marks[below] as number)
          : NO_CALL;
      if (kind === Chosen.droppable) {
        placed[mark] = 0;
        placedOrder.pop();
        node = blocker;
        dropFrom = mark;
        return true;
      }
      unlift(list, mark);
      if (kind === Chosen.forced) continue; // its level has nothing else worth trying
      if (
        kind === Chosen.scanWithAlternative &&
        tryRequired(mark, Chosen.scan, inFlightTransition(state).state)
      ) {
        return true;
      }
      node = next[mark] as number;
      dropFrom = -1;
      return true;
    }
    return false;
  };

  for (;;) {
    const reason = exhausted(budget, visited.size);
    if (reason) return { verdict: 'unknown', reason };
    if (levelStart) {
      levelStart = false;
      node = next[HEAD] as number;
      dropFrom = -1;
      const forced = findInert(list, inert, mayFly, state, budget);
      if (forced !== NIL) {
        tryRequired(forced, Chosen.forced, state); // always descends: forced steps are not cached
        continue;
      }
    }
    if (dropFrom < 0) {
      if (node !== NIL && isCallNode(node)) {
        const at = node;
        node = next[at] as number;
        // Inert candidates were all tried by findInert at this level, and none fitted.
        if (!inert[rankOf(at)]) tryScanned(at);
        continue;
      }
      if (node === NIL && (accept === undefined || accept(state))) {
        const invokedAt = new Float64Array(path.depth);
        for (let i = 0; i < path.depth; i++) {
          const mark = path.marks[i] as number;
          invokedAt[i] =
            path.kinds[i] === Chosen.droppable
              ? (droppableInvokedAt[mark] as number)
              : (time[mark] as number);
        }
        return { verdict: 'ok', order: pathIds(path, list), invokedAt, finalState: state };
      }
      dropFrom = pool.head;
    }
    if (tryDroppables() || backtrack()) continue;
    return beyond ? { verdict: 'beyondHorizon' } : illegal();
  }

  function illegal(): PartResult {
    return {
      verdict: 'illegal',
      longestPrefix: longest.ids,
      stuck: longest.stuck,
      stateAfterPrefix: longest.state ?? initial,
    };
  }
}
