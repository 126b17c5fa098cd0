/**
 * The seam between the property loop and the execution modes. A mode runner executes one
 * sequence on a fresh database and returns what it observed as data (`Execution`); it never
 * judges: `check/judge-run.ts` does, for every mode. The loop above it does not know whether
 * calls ran in this thread, on workers, or under the scheduler.
 */

import type fc from 'fast-check';
import type { SequenceOptions } from '../generate/sequence-arbitrary.ts';
import type { Step } from '../model/events.ts';
import type { Execution } from '../types/execution.ts';

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
   * Runs `steps` on a fresh database and returns what happened. `replay` is what a saved case stored
   * beside its steps (its `extra` fields, e.g. a schedule); a mode that needs one to repeat a run
   * exactly reads it from there, others ignore it.
   */
  execute(steps: readonly Step[], replay?: Readonly<Record<string, unknown>>): Promise<Execution>;
  close(): Promise<void>;
}
