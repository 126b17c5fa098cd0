/**
 * A mode runner with the judge behind it: execute (any mode) → check (`judgeRun`) → detail for
 * reports (`runDetail`). Every entry point that runs sequences and wants verdicts (the property
 * loop of `checkHandler`, `runCase`) goes through here, so no mode judges its own runs.
 */
import type fc from 'fast-check';
import { judgeRun } from '../check/judge-run.ts';
import type { GeneratedCase, ModeRunner } from '../execute/mode-runner.ts';
import { type SequenceOptions, sequenceArbitrary } from '../generate/sequence-arbitrary.ts';
import type { Step } from '../model/events.ts';
import type { FixtureWithPolicy } from '../model/state.ts';
import { runDetail } from '../report/run-detail.ts';
import type { RunDetail } from '../types/execution.ts';
import type { Trace } from '../types/trace.ts';
import type { RunVerdict } from '../types/verdict.ts';

/** One sequence executed and judged. */
export interface JudgedRun {
  readonly verdict: RunVerdict;
  /** What the invariants read: every call's outcome and the final database. */
  readonly trace: Trace;
  /** Mode-specific detail for reports and saved cases (history, schedule, lanes). */
  readonly detail?: RunDetail;
}

/** Runs sequences in one mode and judges each. `close()` when done. */
export interface JudgedRunner {
  /** The cases this mode draws: its own (a scheduled case carries a schedule), else the steps alone. */
  caseArbitrary(options: SequenceOptions): fc.Arbitrary<GeneratedCase>;
  /** Executes `steps` on a fresh database (`replay`: what a saved case stored beside them) and judges the run. */
  execute(steps: readonly Step[], replay?: Readonly<Record<string, unknown>>): Promise<JudgedRun>;
  close(): Promise<void>;
}

/** Puts the judge behind `runner`, holding runs to the model started from `fixture`. */
export function judgedRunner(runner: ModeRunner, fixture: FixtureWithPolicy): JudgedRunner {
  return {
    caseArbitrary: (options) =>
      runner.caseArbitrary?.(options) ??
      sequenceArbitrary(fixture, options).map((steps): GeneratedCase => ({ steps })),
    async execute(steps, replay) {
      const execution = await runner.execute(steps, replay);
      const judgement = judgeRun(fixture, steps, execution);
      const detail = runDetail(execution, judgement);
      return { verdict: judgement.verdict, trace: judgement.trace, ...(detail ? { detail } : {}) };
    },
    close: () => runner.close(),
  };
}
