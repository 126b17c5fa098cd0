/**
 * A mode runner with the judge behind it: execute (any mode) → check (`judgeRun`) → detail for
 * reports (`runDetail`). Every entry point that runs sequences and wants verdicts (the property
 * loop of `checkHandler`, `runCase`) goes through here, so no mode judges its own runs.
 */
import type fc from 'fast-check';
import { judgeRun } from '../check/judge-run.ts';
import type { GeneratedCase, ModeRunner } from '../execute/mode-runner.ts';
import { takeOutput } from '../execute/runtime/contain/handler-output.ts';
import { drive, type Task, wait } from '../execute/runtime/task.ts';
import { modelWalkOf } from '../generate/model-walk.ts';
import { type SequenceOptions, sequenceArbitrary } from '../generate/sequence-arbitrary.ts';
import type { Step } from '../model/events.ts';
import type { OperationSpec } from '../model/operation.ts';
import type { FixtureWithPolicy } from '../model/state.ts';
import { runDetail } from '../report/run-detail.ts';
import type { Execution, RunDetail } from '../types/execution.ts';
import type { Trace } from '../types/trace.ts';
import type { Hang, RunVerdict } from '../types/verdict.ts';

/** One sequence executed and judged. */
export interface JudgedRun {
  readonly verdict: RunVerdict;
  /** What the invariants read: every call's outcome and the final database. */
  readonly trace: Trace;
  /** Mode-specific detail for reports and saved cases (history, schedule, lanes). */
  readonly detail?: RunDetail;
  /** What plugin code wrote to stdout and stderr during the run (bounded); absent when nothing. */
  readonly output?: string;
}

/** One run as a task, judged at its end (see `RunAttempt` in `execute/mode-runner.ts`). */
export interface JudgedAttempt {
  readonly task: Task<JudgedRun>;
  /** After `CallHung`: the run up to the hang, judged (a hang failure). */
  afterHang(hang: Hang): Promise<JudgedRun>;
  close(): void;
}

/** Runs sequences in one mode and judges each. `close()` when done. */
export interface JudgedRunner {
  /** The operation the runner's runs are held to. */
  readonly spec: OperationSpec;
  /**
   * The cases this mode draws: its own (a scheduled case carries a schedule), else the steps
   * alone; of the operation the runner checks.
   */
  caseArbitrary(options: Omit<SequenceOptions, 'spec'>): fc.Arbitrary<GeneratedCase>;
  /** Executes `steps` on a fresh database (`replay`: what a saved case stored beside them) and judges the run. */
  execute(steps: readonly Step[], replay?: Readonly<Record<string, unknown>>): Promise<JudgedRun>;
  /** The same run as a task, to be driven with `drive` among others (`explore.ts`). */
  attempt(steps: readonly Step[], replay?: Readonly<Record<string, unknown>>): JudgedAttempt;
  /** Drives a task under this mode's call budget (plainly, for a mode that runs no plugin code here). */
  drive<T>(task: Task<T>): Promise<T>;
  close(): Promise<void>;
}

/** Puts the judge behind `runner`, holding runs to the model of `spec` started from `fixture`. */
export function judgedRunner(
  runner: ModeRunner,
  fixture: FixtureWithPolicy,
  spec: OperationSpec,
): JudgedRunner {
  const world = { fixture, spec };
  return {
    spec,
    caseArbitrary: (options) =>
      runner.caseArbitrary?.({ ...options, spec }) ??
      sequenceArbitrary(fixture, { ...options, spec }).map((steps): GeneratedCase => ({ steps })),
    async execute(steps, replay) {
      takeOutput(); // what came before this run is not its output
      return judge(world, steps, await runner.execute(steps, replay));
    },
    attempt(steps, replay) {
      const attempt = runner.attempt?.(steps, replay);
      if (!attempt) {
        // A mode that runs no plugin code on this thread has nothing to stop here: one promise.
        return {
          task: judgedExecution(world, steps, runner, replay),
          afterHang: () => Promise.reject(new Error('no hang here')),
          close() {},
        };
      }
      return {
        task: judgedTask(world, steps, attempt.task),
        afterHang: async (hang) => judge(world, steps, await attempt.afterHang(hang)),
        close: () => attempt.close(),
      };
    },
    drive: (task) => (runner.watch ? runner.watch.run(task) : drive(task, (fn) => fn())),
    close: () => runner.close(),
  };
}

// Module-level generators, not closures made per run: a run's task is made for every case.

/** The fixture a runner's runs start from and the operation they are held to. */
interface World {
  readonly fixture: FixtureWithPolicy;
  readonly spec: OperationSpec;
}

function* judgedTask(world: World, steps: readonly Step[], task: Task<Execution>): Task<JudgedRun> {
  takeOutput();
  return judge(world, steps, yield* task);
}

function* judgedExecution(
  world: World,
  steps: readonly Step[],
  runner: ModeRunner,
  replay: Readonly<Record<string, unknown>> | undefined,
): Task<JudgedRun> {
  takeOutput();
  return judge(world, steps, yield* wait(runner.execute(steps, replay)));
}

/**
 * A run's verdict, trace and detail, with what plugin code printed during it (on this thread, and
 * on workers, whose replies bring theirs here).
 */
function judge({ fixture, spec }: World, steps: readonly Step[], execution: Execution): JudgedRun {
  // Generation already stepped the model over generated steps: the judge reads that walk.
  const judgement = judgeRun(fixture, spec, steps, execution, modelWalkOf(steps, fixture, spec));
  const detail = runDetail(execution, judgement);
  const output = takeOutput();
  // Filled in place (this runs for every run), in the order the spreads it replaced gave.
  const run: { -readonly [K in keyof JudgedRun]: JudgedRun[K] } = {
    verdict: judgement.verdict,
    trace: judgement.trace,
  };
  if (detail) run.detail = detail;
  if (output) run.output = output;
  return run;
}
