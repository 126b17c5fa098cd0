/**
 * The limits one check shares across all its partitions: wall-clock time, model steps and cache
 * size. A limit reached becomes an "unknown" verdict naming it, never a hang.
 */
import type { ResolvedLinearizabilityOptions } from './options.ts';

/** Spent and remaining effort of one `checkHistory` call. */
export interface Budget {
  readonly options: ResolvedLinearizabilityOptions;
  readonly deadline: number;
  steps: number;
  /** Search iterations, across parts: the clock is read every 1,024. */
  rounds: number;
}

/** Starts the clock. */
export function startBudget(options: ResolvedLinearizabilityOptions): Budget {
  return { options, deadline: options.clock() + options.timeLimitMs, steps: 0, rounds: 0 };
}

/**
 * Counts one search iteration and says why the search must stop now, or undefined to go on.
 * The limits are looked at every 1,024 iterations, so the inner loop stays cheap.
 */
export function exhausted(budget: Budget, cacheSize: number): string | undefined {
  if ((++budget.rounds & 1023) !== 0) return undefined;
  const { options } = budget;
  if (budget.steps > options.stepsMax) return `stepsMax reached: ${options.stepsMax} model steps`;
  if (cacheSize > options.statesMax) return `statesMax reached: ${options.statesMax} cached states`;
  if (options.clock() > budget.deadline) {
    return `timeLimitMs reached: ${options.timeLimitMs} ms after ${budget.steps} model steps`;
  }
  return undefined;
}
