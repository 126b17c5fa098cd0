/**
 * The search's live path: one frame per linearised entry, with what backtracking needs to undo
 * it (the state and highest rank before it, how it was chosen, where the scan stood). Parallel
 * arrays rather than frame objects: a 100,000-entry path is pushed and popped in a hot loop.
 */
import type { HistoryEntry } from '../../model/history.ts';
import type { ModelState } from '../../model/state.ts';
import { type EventList, rankOf } from './event-list.ts';

/** How a frame's entry was chosen, which decides what backtracking tries next. */
export const Chosen = {
  /** A required entry the scan picked; on backtrack the scan moves on to the next candidate. */
  scan: 0,
  /** As `scan`, but the entry may also take effect as an in-flight conflict: try that first. */
  scanWithAlternative: 1,
  /** An inert entry that fitted: the only candidate its level needs, so the level fails with it. */
  forced: 2,
  /** A droppable call; on backtrack the scan moves on to the next droppable call. */
  droppable: 3,
} as const;

/** A frame's `Chosen` value. */
export type ChosenKind = (typeof Chosen)[keyof typeof Chosen];

/**
 * The path, bottom first, in arrays sized once for the deepest it can go (every entry placed):
 * a million-entry path costs 17 bytes a frame and no growth, where six growing Arrays held
 * twice that and copied themselves on the way. The entry ids are read off the marks when they
 * are wanted (`frameId`), not kept: arrays outside the heap that grow past 64 MB make V8 run a
 * full collection for external memory.
 */
export interface SearchPath {
  /** Frames on the path. */
  depth: number;
  readonly kinds: Uint8Array;
  /** The call node of a required entry, or the index of a droppable call. */
  readonly marks: Int32Array;
  /**
   * The state before the frame's entry; undefined once released (`releaseState`), for a search
   * with a horizon that no longer backtracks that deep.
   */
  readonly states: (ModelState | undefined)[];
  /** The highest rank linearised before the frame's entry. */
  readonly maxRanks: Int32Array;
  /** For a droppable call: the event-list node its level's scan had stopped at. */
  readonly blockers: Int32Array;
  /** The memo generation (`visited.ts`) the frame's pair was entered in. */
  readonly generations: Int32Array;
}

/** An empty path that can hold `capacity` frames. */
export function createSearchPath(capacity: number): SearchPath {
  return {
    depth: 0,
    kinds: new Uint8Array(capacity),
    marks: new Int32Array(capacity),
    states: [],
    maxRanks: new Int32Array(capacity),
    blockers: new Int32Array(capacity),
    generations: new Int32Array(capacity),
  };
}

/** Pushes a frame. */
export function pushFrame(
  path: SearchPath,
  kind: ChosenKind,
  mark: number,
  before: ModelState,
  maxRankBefore: number,
  blocker: number,
  generation: number,
): void {
  const i = path.depth++;
  path.kinds[i] = kind;
  path.marks[i] = mark;
  path.states[i] = before;
  path.maxRanks[i] = maxRankBefore;
  path.blockers[i] = blocker;
  path.generations[i] = generation;
}

/** Pops the top frame; the caller reads it first through `top`. */
export function popFrame(path: SearchPath): void {
  path.states[--path.depth] = undefined;
}

/**
 * Forgets the state under frame `i`, so that a long path holds only its last frames' states
 * (each state one step apart still holds the nodes its step copied): backtracking to it is then
 * impossible and the search must say so.
 */
export function releaseState(path: SearchPath, i: number): void {
  path.states[i] = undefined;
}

/** Index of the top frame (−1 when empty). */
export function top(path: SearchPath): number {
  return path.depth - 1;
}

/** The id of the entry of frame `i`, a required entry or a droppable call of `list`. */
export function frameId(path: SearchPath, list: EventList, i: number): number {
  const mark = path.marks[i] as number;
  const entry =
    path.kinds[i] === Chosen.droppable ? list.droppable[mark] : list.required[rankOf(mark)];
  return (entry as HistoryEntry).id;
}

/** The ids on the path, bottom first, as a plain array: the witness when the search succeeds. */
export function pathIds(path: SearchPath, list: EventList): number[] {
  const ids = new Array<number>(path.depth);
  for (let i = 0; i < path.depth; i++) ids[i] = frameId(path, list, i);
  return ids;
}
