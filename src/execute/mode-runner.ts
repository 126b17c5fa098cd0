/**
 * The seam between the property loop and the execution modes. A mode runner executes one
 * sequence on a fresh database and returns the checkers' verdict; the loop above it does not
 * know whether calls ran in this thread, on workers, or under the scheduler.
 */

import type fc from 'fast-check';
import type { SequenceOptions } from '../generate/sequence-arbitrary.ts';
import type { Step } from '../model/events.ts';
import type { Trace } from '../types/trace.ts';
import type { RunVerdict } from '../types/verdict.ts';

/** The result of executing and checking one sequence. */
export interface ExecutedRun {
  readonly verdict: RunVerdict;
  readonly trace: Trace;
  /** Mode-specific detail for reports (e.g. the statement schedule in scheduled mode). */
  readonly detail?: unknown;
}

/** One generated case: its steps, and what the mode drew with them, passed back as `replay`. */
export interface GeneratedCase {
  readonly steps: Step[];
  readonly replay?: Readonly<Record<string, unknown>>;
}

/** Executes sequences in one mode. Create once per check, `close()` when done. */
export interface ModeRunner {
  /**
   * Optional: the cases this mode draws when it needs more than the steps. Scheduled mode draws
   * a schedule with them, so fast-check shrinks steps and schedule together. Default: the steps
   * of `sequenceArbitrary` alone.
   */
  caseArbitrary?(options: SequenceOptions): fc.Arbitrary<GeneratedCase>;
  /**
   * Runs `steps` on a fresh database and checks the run. `replay` is what a saved case stored
   * beside its steps (its `extra` fields, e.g. a schedule); a mode that needs one to repeat a run
   * exactly reads it from there, others ignore it.
   */
  execute(steps: readonly Step[], replay?: Readonly<Record<string, unknown>>): Promise<ExecutedRun>;
  close(): Promise<void>;
}
