/**
 * The checker's options: what callers pass (all optional) and what the search uses (resolved
 * once, at the entry point, with defaults filled in and values checked).
 */
import type { ModelState } from '../../model/state.ts';

/** Options a caller may pass to `checkHistory`. */
export interface LinearizabilityOptions {
  /** Wall-clock budget for the whole check, in milliseconds. Default 10,000. */
  readonly timeLimitMs?: number;
  /** Most model steps the search may take before giving up. Default 50,000,000. */
  readonly stepsMax?: number;
  /** Most (linearised set, state) pairs the memo cache may hold. Default 5,000,000. */
  readonly statesMax?: number;
  /** Check independent parts of the history separately (see `partition.ts`). Default true. */
  readonly partition?: boolean;
  /**
   * A condition the final model state must meet, e.g. "equals the database snapshot". The search
   * then also tries letting lost calls take effect after everything else. Disables partitioning.
   */
  readonly acceptFinal?: (state: ModelState) => boolean;
  /** Milliseconds clock for the time limit. Default `performance.now`; tests inject their own. */
  readonly clock?: () => number;
  /**
   * Frames of the search path whose states are kept (see `searchPart`): a long history that never
   * backtracks further is checked in memory that does not grow with it; one that does is searched
   * again without a horizon. Default 128: the soak and bench histories backtrack at most about
   * 20 frames, and every state kept is garbage the collector copies (512 made a soak's check
   * slower). Tests set it small to send fixtures both ways.
   */
  readonly horizonFrames?: number;
}

/** The same options, resolved. */
export interface ResolvedLinearizabilityOptions {
  readonly timeLimitMs: number;
  readonly stepsMax: number;
  readonly statesMax: number;
  readonly partition: boolean;
  readonly acceptFinal: ((state: ModelState) => boolean) | undefined;
  readonly clock: () => number;
  readonly horizonFrames: number;
}

/** Fills in defaults and rejects nonsense early, with a message that says what to pass instead. */
export function resolveLinearizabilityOptions(
  options: LinearizabilityOptions = {},
): ResolvedLinearizabilityOptions {
  return {
    timeLimitMs: positive('timeLimitMs', options.timeLimitMs ?? 10_000, false),
    stepsMax: positive('stepsMax', options.stepsMax ?? 50_000_000, true),
    statesMax: positive('statesMax', options.statesMax ?? 5_000_000, true),
    partition: options.partition ?? true,
    acceptFinal: options.acceptFinal,
    clock: options.clock ?? (() => performance.now()),
    horizonFrames: positive('horizonFrames', options.horizonFrames ?? 128, true),
  };
}

function positive(name: string, value: number, integer: boolean): number {
  const ok = integer
    ? Number.isSafeInteger(value) && value > 0
    : Number.isFinite(value) && value > 0;
  if (!ok) {
    throw new RangeError(
      `Expected the "${name}" option to be a positive ${integer ? 'integer' : 'number'}, got ${String(value)}`,
    );
  }
  return value;
}
