/**
 * Removes the steps of a failing case that do not matter, one at a time, asking an oracle whether
 * what is left still fails: the last pass over a concurrent counterexample, whose own shrinking
 * (fast-check, each candidate on real threads) keeps steps whenever a smaller candidate happens
 * not to race. Run with a deterministic oracle (the case in scheduled mode under its schedule,
 * `api/reduce-by-scheduling.ts`), the result depends on the case alone, never on timing.
 *
 * A step goes with its schedule entry, so every other step keeps its own interleaving, crash and
 * fault. Passes repeat until one removes nothing (so the result is 1-minimal: removing any single
 * step more makes it pass), within a bound on oracle runs. Pure but for the oracle.
 */
import type { Step } from '../model/events.ts';
import type { StepSchedule } from '../types/schedule.ts';

/** A case to reduce: its steps and the schedule entry of each (missing entries run to completion). */
export interface ReducibleCase {
  readonly steps: readonly Step[];
  readonly schedule: readonly StepSchedule[];
}

/** What a reduction came to. */
export interface Reduced {
  readonly case: ReducibleCase;
  /** Steps removed. */
  readonly removed: number;
  /** Oracle runs made. */
  readonly runs: number;
  /** True when the bound on runs stopped it before a pass removed nothing. */
  readonly cut: boolean;
}

/** Default bound on oracle runs. */
export const REDUCE_RUNS_MAX = 100;

/** `c` without step `index` and its schedule entry. */
export function withoutStep(c: ReducibleCase, index: number): ReducibleCase {
  return {
    steps: c.steps.filter((_, i) => i !== index),
    schedule: c.schedule.filter((_, i) => i !== index),
  };
}

/**
 * Removes steps of `c` (which `fails`) while what is left still fails, the last step first (later
 * steps depend on earlier ones more often than the reverse); at most `runsMax` oracle runs.
 */
export async function reduceSteps(
  c: ReducibleCase,
  fails: (candidate: ReducibleCase) => Promise<boolean>,
  runsMax: number = REDUCE_RUNS_MAX,
): Promise<Reduced> {
  let current = c;
  let runs = 0;
  let removed = 0;
  for (;;) {
    let progress = false;
    for (let i = current.steps.length - 1; i >= 0; i--) {
      if (current.steps.length <= 1) break;
      if (runs >= runsMax) return { case: current, removed, runs, cut: true };
      const candidate = withoutStep(current, i);
      runs++;
      if (await fails(candidate)) {
        current = candidate;
        removed++;
        progress = true;
      }
    }
    if (!progress) return { case: current, removed, runs, cut: false };
  }
}
