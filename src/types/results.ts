/**
 * What a check, a case run and a soak return, as plain data: the results users read and reports
 * render. At the bottom, so the reports that render them need not import the layer that ran them.
 */
import type { Step } from '../model/events.ts';
import type { HistoryEntry } from '../model/history.ts';
import type { OperationSpec } from '../model/operation.ts';
import type { Fixture } from '../model/world.ts';
import type { Coverage } from './coverage.ts';
import type { FindingSignature } from './findings.ts';
import type { InputCoverage } from './input-coverage.ts';
import type { Mode } from './mode.ts';
import type { ModeShare, OperationCoverage } from './operation-coverage.ts';
import type { ResolvedOptions } from './options.ts';
import type { CallAnswer, Trace } from './trace.ts';
import type { Failure } from './verdict.ts';

/** A shrunk failing sequence and everything needed to read and replay it. */
export interface Counterexample {
  readonly handler: string;
  readonly handlerName: string;
  readonly mode: Mode;
  readonly seed: number;
  /** fast-check's replay path: with the seed, regenerates this exact case. */
  readonly path: string;
  readonly fixture: Fixture;
  /**
   * The operation the run checked, the handler's own spec: reports read it. (A saved case names
   * it in `fixture.operation`, and replaying it resolves that name back to a spec.)
   */
  readonly spec: OperationSpec;
  readonly steps: readonly Step[];
  readonly failures: readonly Failure[];
  /** Runs until the first failure, and shrink steps after it. */
  readonly runsToFailure: number;
  readonly shrinks: number;
  /**
   * Set when shrinking was cut short, and why: a hang costs a whole call budget per candidate, so
   * shrinking stops once hung candidates have taken `HANG_SHRINK_MS`; the case is still a failing one.
   */
  readonly shrinkCut?: string;
  /** Mode-specific detail (e.g. the schedule), kept for replay. */
  readonly detail?: unknown;
  /**
   * What the handler answered at every call of the run reported, so a report shows the handler's
   * answers, not the model's (which may differ where the model leaves a value to the server).
   */
  readonly answers?: readonly CallAnswer[];
  /** What the handler wrote to stdout and stderr during the failing run (bounded); absent when nothing. */
  readonly handlerOutput?: string;
}

/** What `checkHandler` returns. */
export interface CheckResult {
  readonly verdict: 'passed' | 'failed';
  readonly handler: string;
  readonly handlerName: string;
  /** The mode that found the counterexample, else the last one explored. */
  readonly mode: Mode;
  /** Every mode explored, in order (mode `auto`: sequential, then scheduled). */
  readonly modes: readonly Mode[];
  readonly seed: number;
  readonly shard: ResolvedOptions['shard'];
  readonly runs: number;
  readonly runsPlanned: number;
  readonly steps: number;
  readonly coverage: Coverage;
  /** Calls that reached each input class (`generate/input-classes.ts`), over the runs counted. */
  readonly inputCoverage: InputCoverage;
  /** What the calls came to against the operation's rules: edges met, answers, conflicting groups. */
  readonly operationCoverage?: OperationCoverage;
  /** With several modes: each one's runs and share of `runsPlanned`, in the order explored. */
  readonly split?: readonly ModeShare[];
  readonly elapsedMs: number;
  /** True when the time limit stopped generation before `runsPlanned`. */
  readonly timedOut: boolean;
  /**
   * The counterexample: of the first failing run, or with `allFindings`, of the first new
   * finding (none when every finding is known).
   */
  readonly counterexample?: Counterexample;
  /**
   * With `allFindings`: every distinct finding, in the order first found (known ones included).
   * The verdict is `failed` when one of them is new.
   */
  readonly findings?: readonly Finding[];
  /** With `allFindings` over several seeds: the seeds searched, in order (`seed` is the first). */
  readonly seeds?: readonly number[];
}

/** What running a case came to. */
export interface CaseResult {
  readonly verdict: 'passed' | 'failed';
  readonly handler: string;
  readonly mode: Mode;
  /** The operation the case was run as: the handler's spec, which the case's operation names. */
  readonly spec: OperationSpec;
  /** Where the handler disagreed with the model or broke an invariant. */
  readonly failures: readonly Failure[];
  /** Where the run broke a promise written in the case file. */
  readonly expectationFailures: readonly ExpectationFailure[];
  readonly trace: Trace;
  readonly detail?: unknown;
}

/** One promise a case file made that did not hold. */
export interface ExpectationFailure {
  readonly step?: number;
  readonly message: string;
}

/** What happened during a soak run. */
export interface SoakCounts {
  readonly operations: number;
  readonly calls: number;
  readonly worldEvents: number;
  readonly lostResponses: number;
  readonly lostRequests: number;
  /** Real outcomes by kind: `fresh`, `replayed`, `refused:conflict`, `keyReuse`, `unexpected`, … */
  readonly outcomes: Readonly<Record<string, number>>;
}

/** The result of `soak`. `unknown`: the checker reached its time limit before deciding. */
export interface SoakResult {
  readonly verdict: 'passed' | 'failed' | 'unknown';
  readonly handler: string;
  readonly handlerName: string;
  readonly clients: number;
  readonly seed: number;
  /** The world the history started from (principals name the clients' calls in reports). */
  readonly fixture: Fixture;
  /** The operation the soak checked, the handler's own spec: reports read it. */
  readonly spec: OperationSpec;
  readonly counts: SoakCounts;
  /** Time spent issuing operations (drain included), and checking, in ms. */
  readonly issueMs: number;
  readonly checkMs: number;
  readonly operationsPerSecond: number;
  /** Failures as in concurrent mode; a linearizability failure's prefix is cut to its last 20. */
  readonly failures: readonly Failure[];
  /** On a failure: what the handler wrote to stdout and stderr during the soak (bounded). */
  readonly handlerOutput?: string;
  readonly history?: readonly HistoryEntry[];
}

/** One distinct finding of an all-findings check. */
export interface Finding extends FindingSignature {
  /** A short stable id of the signature (hex), the same on every seed and machine. */
  readonly id: string;
  /** Failing runs whose shrunk case has this signature. */
  readonly count: number;
  /** Listed in the known-findings file given; a known finding does not fail the check. */
  readonly known: boolean;
  /** The note the known-findings file gives it, if any. */
  readonly note?: string;
  /** The first failing run of this signature, shrunk: what the report shows and the case file holds. */
  readonly counterexample: Counterexample;
}
