/**
 * The seam between the property loop and the execution modes. A mode runner executes one
 * sequence on a fresh database and returns what it observed as data (`Execution`); it never
 * judges: `check/judge-run.ts` does, for every mode. The loop above it does not know whether
 * calls ran in this thread, on workers, or under the scheduler.
 */

import type fc from 'fast-check';
import type { SequenceOptions } from '../generate/sequence-arbitrary.ts';
import type { Step } from '../model/events.ts';
import type { Snapshot } from '../model/world.ts';
import type { Execution } from '../types/execution.ts';
import type { Hang } from '../types/verdict.ts';
import { CallHung, type CallWatch } from './runtime/call-watch.ts';
import type { Task } from './runtime/task.ts';

/** The snapshot of a run whose database could not be read after a hang (the snapshot hung too). */
export const UNREADABLE_SNAPSHOT: Snapshot = { automations: [], receipts: [] };

/** One generated case: its steps, and what the mode drew with them, passed back as `replay`. */
export interface GeneratedCase {
  readonly steps: Step[];
  readonly replay?: Readonly<Record<string, unknown>>;
}

/**
 * One run of one case, as a task (`task.ts`), for a loop that strings many runs into one watched
 * stretch (`api/explore.ts`). Drive `task` with the runner's `watch`; when it throws `CallHung`
 * (from inside, or because the watchdog stopped it mid-way, which skips its `finally` blocks),
 * `afterHang` gives the execution up to the hang and leaves the runner ready for the next run.
 * Either way, `close()` once at the end.
 */
export interface RunAttempt {
  readonly task: Task<Execution>;
  afterHang(hang: Hang): Promise<Execution>;
  close(): void;
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
  /**
   * Optional: the same run as a `RunAttempt`, for modes that run plugin code on this thread
   * (sequential, scheduled); `execute` is then `runAttempt(attempt(…), watch)`.
   */
  attempt?(steps: readonly Step[], replay?: Readonly<Record<string, unknown>>): RunAttempt;
  /** The call budget plugin code on this thread runs under; absent when none runs here. */
  readonly watch?: CallWatch;
  close(): Promise<void>;
}

/** Drives `attempt` to its end under `watch`: its execution, a hang included; closes it. */
export async function runAttempt(attempt: RunAttempt, watch: CallWatch): Promise<Execution> {
  try {
    return await watch.run(attempt.task);
  } catch (thrown) {
    if (!(thrown instanceof CallHung)) throw thrown;
    return await attempt.afterHang(thrown.hang);
  } finally {
    attempt.close();
  }
}
