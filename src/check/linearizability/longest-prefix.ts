/**
 * Remembers the deepest dead end of the search: the longest order that fitted, the model state
 * it left, and what could not follow it. That is the useful part of an "illegal" verdict
 * (porcupine's longest partial linearisation). Copying the whole path at every new record would
 * be quadratic on a long history, so the record shares its agreed prefix with the live path and
 * copies only the rest.
 */
import type { ModelState } from '../../model/state.ts';

/** The record so far. */
export interface LongestPrefix {
  /** Ids of the longest order found. */
  readonly ids: number[];
  /** Ids that could not be placed after it. */
  stuck: number[];
  /**
   * The model after `ids` as the search stepped it. Replaying `ids` with `step` is not the same:
   * a call placed as a declared in-flight answer took no effect, whatever `step` says.
   */
  state: ModelState | undefined;
  /** `ids` and the live path agree on their first `agree` elements. */
  agree: number;
}

/** An empty record. */
export function createLongestPrefix(): LongestPrefix {
  return { ids: [], stuck: [], state: undefined, agree: 0 };
}

/** Call after popping the live path, so the agreed prefix stays true. */
export function notePop(record: LongestPrefix, pathLength: number): void {
  if (record.agree > pathLength) record.agree = pathLength;
}

/** Whether a dead end at this depth beats the record (the first of a length wins). */
export function beats(record: LongestPrefix, pathLength: number): boolean {
  return pathLength > record.ids.length || (pathLength === 0 && record.stuck.length === 0);
}

/**
 * Makes the live path (its first `length` ids, `idAt(i)` the i-th), the state it reached, and
 * what was stuck after it, the new record.
 */
export function keep(
  record: LongestPrefix,
  idAt: (i: number) => number,
  length: number,
  stuck: number[],
  state: ModelState,
): void {
  for (let i = record.agree; i < length; i++) record.ids[i] = idAt(i);
  record.ids.length = length;
  record.agree = length;
  record.stuck = stuck.sort((a, b) => a - b);
  record.state = state;
}
