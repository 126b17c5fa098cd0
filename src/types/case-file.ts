/**
 * A case file, parsed: the one format for named scenarios and saved counterexamples (see
 * `report/case-file.ts` for the text form and its strict parser).
 */
import type { Step } from '../model/events.ts';
import type { Row } from '../model/operation.ts';
import type { OutcomePattern } from '../model/outcome-pattern.ts';
import type { FixtureWithPolicy } from '../model/state.ts';
import type { Mode } from './mode.ts';

/** The format tag every case file carries. */
export const CASE_FORMAT = 'receiptcheck-case/1';

/** An expectation attached to a step: one outcome, or a group's outcomes in any order. */
export type StepExpectation =
  | { readonly step: number; readonly lane: number; readonly outcome: OutcomePattern }
  | { readonly step: number; readonly anyOrder: readonly OutcomePattern[] };

/** A scenario or counterexample, parsed. */
export interface CaseFile {
  /** The file it was read from, for messages; absent for a case made in code. Never written out. */
  readonly source?: string;
  readonly name: string;
  readonly description: string;
  /** Handler name or path; scenarios without one run against `reference`. */
  readonly handler: string;
  /** `false` when the file names no handler (and `handler` is the default, `reference`). */
  readonly handlerNamed?: false;
  readonly mode: Mode;
  readonly fixture: FixtureWithPolicy;
  readonly steps: readonly Step[];
  readonly expectations: readonly StepExpectation[];
  /**
   * Final state the article promises: receipt count and rows of the operation's table, e.g.
   * `automations` (partial: only the listed ids, only the listed fields).
   */
  readonly expectFinal?: {
    readonly receipts?: number;
    readonly [table: string]: readonly Row[] | number | undefined;
  };
  /** Anything else the writer stored (seed, failures, schedule); kept for replay. */
  readonly extra: Readonly<Record<string, unknown>>;
}
