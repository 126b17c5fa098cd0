/**
 * What a mode runner returns for one sequence: plain data, whatever the mode observed, and no
 * verdict. `check/judge-run.ts` judges every kind; the runners never do. A run that stopped at a
 * hung call says so in `hang`; its other fields then hold what it did up to there, and its
 * snapshot is the database as the hung call left it (rolled back, if it held a transaction).
 */

import type { HistoryEntry } from '../model/history.ts';
import type { Observed } from '../model/outcome.ts';
import type { Snapshot } from '../model/world.ts';
import type { StepSchedule } from './schedule.ts';
import type { DecisionRecord, LaneEnd, LaneRecord, TraceEntry } from './scheduled-trace.ts';
import type { Trace } from './trace.ts';
import type { Hang } from './verdict.ts';

/** A sequential run: every call's outcome in order, and the database at the end. */
export interface SequentialExecution {
  readonly mode: 'sequential';
  readonly trace: Trace;
  readonly hang?: Hang;
}

/** Where a history entry stands in the sequence (for a soak run: its rank and its client). */
export interface Place {
  readonly step: number;
  readonly lane: number;
}

/** One executed sequence: the trace, the history, and for each entry id its place. */
export interface ConcurrentExecution {
  readonly mode: 'concurrent';
  readonly trace: Trace;
  /** Entry `i` has id `i`; times in ms from the start of the run. */
  readonly history: readonly HistoryEntry[];
  readonly places: readonly Place[];
  /** By entry id: when a lost response's call really returned (same clock as the history). */
  readonly returnedAt: readonly (number | undefined)[];
  readonly hang?: Hang;
}

/** One executed sequence: every lane's record, every grant, and the final database. */
export interface ScheduledExecution {
  readonly mode: 'scheduled';
  /** The schedule that drove the run, one entry per step: replaying with it repeats the run. */
  readonly schedule: readonly StepSchedule[];
  readonly lanes: readonly LaneRecord[];
  readonly entries: readonly TraceEntry[];
  readonly snapshot: Snapshot;
  readonly hang?: Hang;
  /** Every gated grant's decision, when the run was asked for them (`RECORD_DECISIONS`). */
  readonly decisions?: readonly DecisionRecord[];
  /**
   * Present when the server, not the schedule, chose the order at least once: a lane let go of a
   * lock two or more other lanes waited on, and which of them went first was a race between their
   * backends (PostgreSQL). The same schedule may then take another path.
   */
  readonly serverOrdered?: true;
}

/**
 * The key of a run's `replay` record that asks scheduled mode to record its decisions
 * (`{schedule, [RECORD_DECISIONS]: true}`): the prover's runs do, generated runs never pay for it.
 */
export const RECORD_DECISIONS = 'recordDecisions';

/** One executed sequence, in any mode. */
export type Execution = SequentialExecution | ConcurrentExecution | ScheduledExecution;

/** What a concurrent run leaves beside its verdict, for reports and saved cases. */
export interface ConcurrentDetail {
  readonly mode: 'concurrent';
  /** Entry `i` has id `i`; times in ms from the start of the run. */
  readonly history: readonly HistoryEntry[];
  /** Where each entry stood in the sequence, by id. */
  readonly places: readonly Place[];
  /** The linearisation found, as entry ids; absent when there is none. */
  readonly order?: readonly number[];
}

/**
 * What a scheduled run leaves beside its verdict, and so in a saved counterexample's
 * `extra.detail`: the schedule that drove it (enough to replay it exactly, unless the server chose
 * an order, `serverOrdered`), the trace hash that proves a replay took the same path, the
 * interleaving as lanes, and the serial order the verdict rests on.
 */
export interface ScheduledDetail {
  readonly mode: 'scheduled';
  /** One entry per step; replaying the steps with it repeats the run grant for grant. */
  readonly schedule: readonly StepSchedule[];
  /** `traceHash(entries)`: equal hashes, equal interleavings. */
  readonly traceHash: string;
  /** `renderLanes(entries)`: the interleaving, one column per lane. */
  readonly lanes: string;
  readonly entries: readonly TraceEntry[];
  /** The serial order the verdict rests on, as `{step, lane}`. */
  readonly order: readonly Place[];
  /** How every call ended, in step then lane order (absent in cases saved before it was kept). */
  readonly ends?: readonly ScheduledCallEnd[];
  /** The run's decisions, when it recorded them (the prover's runs); never saved in a case. */
  readonly decisions?: readonly DecisionRecord[];
  /**
   * Present when the server chose which of two or more waiting lanes went first
   * (`ScheduledExecution.serverOrdered`): replaying the schedule may take another path.
   */
  readonly serverOrdered?: true;
}

/** How one call of a scheduled run ended, for reports: what its client saw, or that it crashed. */
export interface ScheduledCallEnd extends Place {
  readonly end: LaneEnd;
  /**
   * A call that crashed after a commit, read by the verdict as having taken effect: the outcome
   * the model gives it there. Absent when it is read as having changed nothing.
   */
  readonly readAs?: Observed;
  /** A call that crashed after a commit, read as having left its claim (policy `claimExpiry`). */
  readonly leftClaim?: true;
}

/** A run's mode-specific detail; sequential runs have none. */
export type RunDetail = ConcurrentDetail | ScheduledDetail;
