/**
 * What `prove` returns, as plain data, so the report can render it without the api: the cases,
 * the schedules run and pruned, the bound, and the failure with the fewest preemptions.
 */

import type { Step } from '../model/events.ts';
import type { OperationSpec } from '../model/operation.ts';
import type { CaseFile } from './case-file.ts';
import type { ScheduledDetail } from './execution.ts';
import type { Failure } from './verdict.ts';

/** The failure `prove` found: the case, the schedule and its run. */
export interface ProveFailure {
  /** The failing case with its schedule, as a scheduled case file (`replay` runs it exactly). */
  readonly caseFile: CaseFile;
  /** The operation the case was proved as (the handler's spec; the case file names it). */
  readonly spec: OperationSpec;
  readonly preemptions: number;
  readonly failures: readonly Failure[];
  readonly detail: ScheduledDetail;
  /** Generated cases: which one failed, counting from 1 in the order they were searched. */
  readonly caseNumber?: number;
}

/** What `prove` came to. */
export interface ProveResult {
  /**
   * `held`: no schedule within the bound failed; `incomplete`: nothing failed, but a case hit
   * `schedulesMax` (`limitReached`), or some runs took a path the server chose (`serverOrdered`).
   */
  readonly verdict: 'held' | 'failed' | 'incomplete';
  readonly handler: string;
  readonly engine: 'sqlite' | 'postgres';
  readonly preemptions: number;
  readonly reduce: boolean;
  /** Every single crash and store fault was injected too, under every schedule. */
  readonly injections: boolean;
  /** Where the cases came from, and their size bound when generated. */
  readonly source: 'generated' | 'files';
  readonly stepsMax: number;
  readonly lanesMax: number;
  readonly cases: number;
  readonly runs: number;
  readonly pruned: number;
  readonly duplicates: number;
  readonly beyondBound: number;
  /** A case hit `schedulesMax`: its search stopped before every schedule within the bound ran. */
  readonly limitReached: boolean;
  /**
   * Runs in which the server, not the schedule, chose which of two or more lanes waiting on one
   * lock went first (PostgreSQL, `ScheduledDetail.serverOrdered`): each took one of the paths its
   * schedule allows, and the others were not run.
   */
  readonly serverOrdered: number;
  readonly elapsedMs: number;
  readonly failure?: ProveFailure;
}

/** One case's search as it ended: its steps, every schedule's trace hash in run order, its time. */
export interface ProvedCase {
  readonly steps: readonly Step[];
  readonly traceHashes: readonly string[];
  readonly elapsedMs: number;
  readonly failed: boolean;
}
