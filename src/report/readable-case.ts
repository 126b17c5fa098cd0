/**
 * What the counterexample renderers read, and how they are asked to render it: shared by the
 * text report (`format-counterexample.ts`), the reproduce commands (`reproduce.ts`) and the HTML
 * timeline (`timeline/`).
 */
import type { Step } from '../model/events.ts';
import type { OperationSpec } from '../model/operation.ts';
import type { Fixture } from '../model/world.ts';
import type { CallAnswer } from '../types/trace.ts';
import type { Failure } from '../types/verdict.ts';

/** What the renderer reads; a `Counterexample` from `checkHandler` fits, and so does a replayed case. */
export interface ReadableCase {
  /** The handler as the user gave it (name or path), for the re-run command. */
  readonly handler?: string;
  /** `false` for a case file that names no handler (a scenario): it replays with `--handler`. */
  readonly handlerNamed?: false;
  readonly handlerName: string;
  readonly mode: string;
  readonly fixture: Fixture;
  /** The operation the case is of: every step is described, and every failure explained, in its terms. */
  readonly spec: OperationSpec;
  readonly steps: readonly Step[];
  readonly failures: readonly Failure[];
  readonly seed?: number;
  /** fast-check's replay path. */
  readonly path?: string;
  readonly runsToFailure?: number;
  readonly shrinks?: number;
  /** Why shrinking stopped early, when it did. */
  readonly shrinkCut?: string;
  /** Mode-specific detail; scheduled mode's interleaving (`lanes`) is shown when present. */
  readonly detail?: unknown;
  /** What the handler answered at each call; without them a report falls back on the run's record or the model. */
  readonly answers?: readonly CallAnswer[];
  /** What the handler printed during the failing run, shown under "Handler output". */
  readonly handlerOutput?: string;
}

/** Where the case was saved, and whether to print the CLI commands that reproduce it. */
export interface RenderContext {
  /** The counterexample file, for the `replay` command. */
  readonly savedPath?: string;
  /** Print `receiptcheck` commands (default true); the API turns them off for its own hint. */
  readonly commands?: boolean;
  /** Extra lines to print under "Reproduce". */
  readonly hints?: readonly string[];
  /** A concurrent counterexample's scheduled reproduction, saved with it: `replay` says so. */
  readonly reproducesDeterministically?: boolean;
  /** Print the stack of every unexpected error under its step, and every statement in full (`--verbose`). */
  readonly verbose?: boolean;
  /**
   * The case is one finding of an `--all-findings` run: its re-run searches on past the first
   * failure, or every finding's re-run would find only the first.
   */
  readonly allFindings?: boolean;
}
