/**
 * What a linearizability check concludes, as data (porcupine's `Ok | Illegal | Unknown`).
 * Rendering it as text is the report's job.
 */
import type { ModelState } from '../../model/state.ts';

/** The history is linearizable: here is one witness order and where it leaves the model. */
export interface LinearizableResult {
  readonly verdict: 'ok';
  /** Entry ids in linearisation order; calls that may not have happened and were not needed are left out. */
  readonly order: readonly number[];
  /** The model state after stepping through `order`. */
  readonly finalState: ModelState;
}

/** No order fits: the outcomes contradict the model or real time. */
export interface IllegalResult {
  readonly verdict: 'illegal';
  /** The longest order found that respects real time and matches every outcome in it. */
  readonly longestPrefix: readonly number[];
  /** The entries that could have come next after `longestPrefix` but did not fit, sorted by id. */
  readonly stuck: readonly number[];
  /**
   * The model after `longestPrefix` as the search stepped it (a call placed as a declared
   * in-flight answer took no effect), so what the stuck entries should have seen.
   */
  readonly stateAfterPrefix: ModelState;
  /** Ids of the independent part of the history that failed, sorted; the rest was not needed. */
  readonly partition: readonly number[];
}

/** The search stopped at a limit before deciding; `reason` names the limit. */
export interface UnknownResult {
  readonly verdict: 'unknown';
  readonly reason: string;
}

/** The verdict of `checkHistory`. */
export type LinearizabilityResult = LinearizableResult | IllegalResult | UnknownResult;
