/**
 * The last pass over a sequential or scheduled counterexample: remove the steps that do not
 * matter, each removal tried on the mode's own runner. fast-check shrinks the moves a case was
 * resolved from, and a move's meaning depends on the state the moves before it left (which row a
 * target index names, which request a retry repeats), so removing an unrelated early step can
 * turn the rest into another case; removing a resolved step leaves every other step as it was.
 * Both modes are deterministic (a scheduled step keeps its own schedule entry), so the result
 * depends on the case alone.
 */
import { type ReducibleCase, reduceSteps } from '../generate/reduce-steps.ts';
import type { Step } from '../model/events.ts';
import type { StepSchedule } from '../types/schedule.ts';
import type { JudgedRun, JudgedRunner } from './judged-runner.ts';
import { REDUCE_TIME_MS } from './reduce-by-scheduling.ts';
import { isHang } from './shrink-failure.ts';

/** A reduced case and its failing run, or undefined when no step could go. */
export interface ReducedInMode {
  readonly steps: readonly Step[];
  readonly replay?: Readonly<Record<string, unknown>>;
  readonly run: JudgedRun;
  /** Steps removed and groups made simpler. */
  readonly changes: number;
}

/**
 * Removes steps from a failing case while it still fails on `runner`; `replay` is what the mode
 * drew with the steps (scheduled mode: a schedule entry per step, removed with its step). Bounded
 * by `REDUCE_TIME_MS`; a hang is left as it is, since each run would wait out a call budget.
 */
export async function reduceInMode(
  runner: JudgedRunner,
  steps: readonly Step[],
  replay: Readonly<Record<string, unknown>> | undefined,
  failed: JudgedRun,
): Promise<ReducedInMode | undefined> {
  const groups = steps.some((s) => s.kind === 'concurrent');
  if ((steps.length <= 1 && !groups) || isHang(failed)) return undefined;
  const entries = replay?.schedule;
  const scheduled = Array.isArray(entries) && entries.length === steps.length;
  if (replay !== undefined && !scheduled) return undefined;
  const replayOf = (k: ReducibleCase) =>
    scheduled ? { ...replay, schedule: k.schedule } : undefined;
  const deadline = performance.now() + REDUCE_TIME_MS;
  let last: JudgedRun | undefined;
  const reduced = await reduceSteps(
    { steps, schedule: scheduled ? (entries as StepSchedule[]) : [] },
    async (k) => {
      // Past the time bound every removal is refused unrun, so the loop ends at once.
      if (performance.now() >= deadline) return false;
      const run = await runner.execute(k.steps, replayOf(k));
      if (run.verdict.verdict !== 'failed' || isHang(run)) return false;
      last = run;
      return true;
    },
  );
  const changes = reduced.removed + reduced.simplified;
  if (changes === 0 || !last) return undefined;
  const again = replayOf(reduced.case);
  return {
    steps: reduced.case.steps,
    ...(again ? { replay: again } : {}),
    run: last,
    changes,
  };
}
