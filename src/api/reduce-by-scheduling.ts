/**
 * The last pass over a concurrent counterexample: remove the steps that do not matter, decided in
 * scheduled mode. fast-check shrinks a concurrent failure by running each smaller candidate on
 * real threads, and a candidate that happens not to race passes, so unrelated steps stay (seen
 * with powertools, seeds 2 and 3: a 6-step case whose race is one group). Here the case is first
 * reproduced under a schedule (`searchSchedules`), then `reduceSteps` drops steps while the case
 * still fails under that schedule: deterministic, whatever the threads did.
 *
 * The reduced counterexample keeps its mode and carries the scheduled run of its own steps (its
 * failures, its interleaving, its schedule, which the saved file replays first). When no schedule
 * reproduces the case, or nothing can go, the counterexample is returned as it was.
 */
import { messageOf } from '../errors.ts';
import { type ReducibleCase, reduceSteps } from '../generate/reduce-steps.ts';
import { counterexampleToCase } from '../report/counterexample-case.ts';
import { DEFAULT_SCHEDULES_MAX } from '../types/replay.ts';
import type { Counterexample } from '../types/results.ts';
import { RUN_TO_COMPLETION } from '../types/schedule.ts';
import { answersOf } from '../types/trace.ts';
import type { JudgedRun } from './judged-runner.ts';
import { executeCase, prepareCase } from './run-case.ts';
import { searchSchedules } from './schedule-search.ts';

/** How far the reduction goes. */
export interface ReduceOptions {
  /** Most schedules searched for a reproduction. Default `DEFAULT_SCHEDULES_MAX` (200). */
  readonly schedulesMax?: number;
  /** Most scheduled runs the removals take. Default `REDUCE_RUNS_MAX` (100). */
  readonly runsMax?: number;
  /** Resolve a relative handler path from here (default: the process's cwd). */
  readonly cwd?: string;
  /** After this long, in ms, no more removals are tried. Default `REDUCE_TIME_MS` (20 s). */
  readonly timeLimitMs?: number;
}

/** How long removals may take in all, in ms: a slow handler's runs stop the pass, not the check. */
export const REDUCE_TIME_MS = 20_000;

/** A reduced counterexample, or the same one; `error` when the reduction could not run. */
export interface ReductionResult {
  readonly counterexample: Counterexample;
  /**
   * Steps removed and groups made simpler (0 when nothing could go or no schedule reproduced the
   * case).
   */
  readonly changes: number;
  /** The scheduled run of the reduced steps, when it changed. */
  readonly run?: JudgedRun;
  readonly error?: string;
}

/** Reduces a concurrent counterexample with a concurrent group (see the file comment). */
export async function reduceByScheduling(
  cx: Counterexample,
  options: ReduceOptions = {},
): Promise<ReductionResult> {
  const same: ReductionResult = { counterexample: cx, changes: 0 };
  if (cx.mode !== 'concurrent' || !cx.steps.some((s) => s.kind === 'concurrent')) return same;
  // A hang costs a whole call budget per run: searching and reducing it would take minutes.
  if (cx.failures.some((f) => f.kind === 'hang')) return same;
  const deadline = performance.now() + (options.timeLimitMs ?? REDUCE_TIME_MS);
  const c = counterexampleToCase(cx);
  const cwd = options.cwd ? { cwd: options.cwd } : {};
  try {
    const search = await searchSchedules(c, {
      schedulesMax: options.schedulesMax ?? DEFAULT_SCHEDULES_MAX,
      ...cwd,
    });
    if (!search.found) return same;
    const schedule = cx.steps.map((_, i) => search.found?.schedule[i] ?? RUN_TO_COMPLETION);
    const prepared = await prepareCase(c, { mode: 'scheduled', ...cwd });
    try {
      const runOf = (k: ReducibleCase) => executeCase(prepared, k.steps, { schedule: k.schedule });
      const failed = (run: JudgedRun) => run.verdict.verdict === 'failed';
      const reduced = await reduceSteps(
        { steps: cx.steps, schedule },
        // Past the time bound every removal is refused unrun, so the loop ends at once.
        async (k) => performance.now() < deadline && failed(await runOf(k)),
        options.runsMax,
      );
      const changes = reduced.removed + reduced.simplified;
      if (changes === 0) return same;
      const run = await runOf(reduced.case);
      if (run.verdict.verdict !== 'failed') return same;
      return {
        changes,
        run,
        counterexample: {
          ...cx,
          steps: reduced.case.steps,
          failures: run.verdict.failures,
          shrinks: cx.shrinks + changes,
          ...(run.detail !== undefined ? { detail: run.detail } : {}),
          answers: answersOf(run.trace.observations),
        },
      };
    } finally {
      await prepared.runner.close();
    }
  } catch (thrown) {
    return { ...same, error: messageOf(thrown) };
  }
}
