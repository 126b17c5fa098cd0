/**
 * From an explored failure to the counterexample a check reports: shrink it
 * (`shrink-failure.ts`), re-run the shrunk case once so the report shows its own failures, put
 * it together as data, and drop the steps that do not matter: on the mode's own runner in
 * sequential and scheduled mode (`reduce-in-mode.ts`), under a schedule in concurrent mode
 * (`reduce-by-scheduling.ts`). Shared by the first-failure check and the all-findings loop
 * (`all-findings.ts`), which does this for every failing run.
 */

import type fc from 'fast-check';
import type { GeneratedCase } from '../execute/mode-runner.ts';
import { interruptedError, interruption } from '../execute/runtime/interrupt.ts';
import type { Fixture } from '../model/world.ts';
import type { Mode } from '../types/mode.ts';
import type { Counterexample } from '../types/results.ts';
import { answersOf } from '../types/trace.ts';
import type { Explored } from './explore.ts';
import type { JudgedRun, JudgedRunner } from './judged-runner.ts';
import { reduceByScheduling } from './reduce-by-scheduling.ts';
import { reduceInMode } from './reduce-in-mode.ts';
import { shrink } from './shrink-failure.ts';

/** What the counterexample names besides its steps. */
export interface CounterexampleContext {
  readonly handler: string;
  readonly handlerName: string;
  readonly mode: Mode;
  readonly seed: number;
  readonly fixture: Fixture;
  readonly callTimeoutMs: number;
  readonly deadline?: number;
  /** For the interruption message: `after N of M runs`. */
  readonly progress: string;
}

/** The shrunk counterexample and the judged run it reports. */
export interface ShrunkCounterexample {
  readonly counterexample: Counterexample;
  readonly run: JudgedRun;
}

/** Shrinks `found` and builds its counterexample; throws `InterruptedError` on SIGINT/SIGTERM. */
export async function shrunkCounterexample(
  runner: JudgedRunner,
  arbitrary: fc.Arbitrary<GeneratedCase>,
  found: Extract<Explored, { kind: 'failed' }>,
  c: CounterexampleContext,
): Promise<ShrunkCounterexample> {
  const shrunk = await shrink(runner, arbitrary, found, {
    seed: c.seed,
    callTimeoutMs: c.callTimeoutMs,
    ...(c.deadline !== undefined ? { deadline: c.deadline } : {}),
  });
  stopIfInterrupted(c, 'shrinking');
  // The shrunk case is re-run once so the report shows its own failures, not a larger one's;
  // when that re-run passes (real threads need not race again), its last failing run during
  // shrinking speaks for it: that run was of these very steps.
  const final = shrunk.shrinks > 0 ? await runner.execute(shrunk.steps, shrunk.replay) : shrunk.run;
  const failed = final.verdict.verdict === 'failed' ? final : shrunk.run;
  const failures = failed.verdict.verdict === 'failed' ? failed.verdict.failures : [];
  const counterexample: Counterexample = {
    handler: c.handler,
    handlerName: c.handlerName,
    mode: c.mode,
    seed: c.seed,
    path: shrunk.path,
    fixture: c.fixture,
    spec: runner.spec,
    steps: shrunk.steps,
    failures,
    runsToFailure: found.index + 1,
    shrinks: shrunk.shrinks,
    ...(shrunk.cut ? { shrinkCut: shrunk.cut } : {}),
    ...(failed.detail !== undefined ? { detail: failed.detail } : {}),
    answers: answersOf(failed.trace.observations),
    ...(failed.output ? { handlerOutput: failed.output } : {}),
  };
  if (c.mode !== 'concurrent') {
    // A removed step leaves the others as they were, where a removed move need not.
    const less = await reduceInMode(runner, shrunk.steps, shrunk.replay, failed);
    stopIfInterrupted(c, 'reducing');
    if (!less) return { counterexample, run: failed };
    const run = less.run;
    return {
      run,
      counterexample: {
        ...counterexample,
        steps: less.steps,
        failures: run.verdict.verdict === 'failed' ? run.verdict.failures : [],
        shrinks: counterexample.shrinks + less.changes,
        ...(run.detail !== undefined ? { detail: run.detail } : {}),
        answers: answersOf(run.trace.observations),
        ...(run.output ? { handlerOutput: run.output } : {}),
      },
    };
  }
  // Real threads keep steps a smaller candidate did not race on; scheduled mode removes them.
  const reduced = await reduceByScheduling(counterexample);
  stopIfInterrupted(c, 'reducing');
  return reduced.run
    ? { counterexample: reduced.counterexample, run: reduced.run }
    : { counterexample, run: failed };
}

/** Throws `InterruptedError` when SIGINT/SIGTERM came while `doing` a counterexample. */
function stopIfInterrupted(c: CounterexampleContext, doing: 'shrinking' | 'reducing'): void {
  const stopped = interruption();
  if (stopped)
    throw interruptedError(
      stopped,
      `in ${c.mode} mode ${c.progress}, while ${doing} a counterexample`,
    );
}
