/**
 * What replaying a case came to, as plain data. A replay never claims a fix it did not see: a
 * pass counts as `held` only where the replay is exact (sequential cases, scheduled cases with
 * their schedule, cases with no concurrent group); a case found on real threads that no longer
 * fails is `notReproduced` after a bounded, reported search of schedules, and so is a scheduled
 * PostgreSQL case whose run the server ordered, after a bounded number of runs of its schedule.
 */
import type { CaseResult } from './results.ts';
import type { Schedule } from './schedule.ts';

/**
 * `reproduced`: the failure happened again. `held`: an exact replay passed, so the case is fixed.
 * `notReproduced`: a timing-dependent case passed on every schedule tried (and on real threads
 * when it ran there), or a server-ordered one on every run of its schedule: not proof of a fix.
 */
export type ReplayVerdict = 'reproduced' | 'held' | 'notReproduced';

/**
 * How the verdict was reached. `exact`: one deterministic run. `saved schedule`: the scheduled
 * reproduction stored with a concurrent counterexample (or a scheduled case's own schedule, when
 * `--mode concurrent` makes its replay timing-dependent). `schedule search`: a schedule found by
 * the search. `real threads`: one run in concurrent mode. `lane order`: sequential mode, which
 * runs each group in lane order only. `repeated schedule`: the case's own schedule run again and
 * again, because the server chose which of two or more lanes waiting on one lock went first
 * (`ScheduledDetail.serverOrdered`), so one run of it is not exact.
 */
export type ReplayRoute =
  | 'exact'
  | 'repeated schedule'
  | 'saved schedule'
  | 'schedule search'
  | 'real threads'
  | 'lane order';

/** The result of `replayCase`. */
export interface ReplayResult {
  readonly verdict: ReplayVerdict;
  readonly route: ReplayRoute;
  /**
   * Schedules run in scheduled mode (a saved one included); 0 when none was searched. For
   * `repeated schedule`, the runs of the case's one schedule.
   */
  readonly schedules: number;
  /**
   * The search's bound: at most this many schedules besides a saved one. For `repeated
   * schedule`, the most runs of the case's schedule (`SERVER_ORDERED_RUNS`).
   */
  readonly schedulesMax: number;
  /** Whether the case also ran on real threads (concurrent mode). */
  readonly realThreads: boolean;
  /** The run the verdict rests on: the failing one when reproduced, else the last one. */
  readonly result: CaseResult;
  /** The schedule that reproduced the failure, when one did. */
  readonly schedule?: Schedule;
}

/**
 * A concurrent counterexample's deterministic reproduction, saved in its case file as
 * `"scheduled"`: a schedule under which scheduled mode fails on the same steps.
 */
export interface ScheduledReproduction {
  readonly schedule: Schedule;
  /** `traceHash` of the failing scheduled run, to tell a replay that took another path. */
  readonly traceHash: string;
  /** Which schedule of the search found it (1-based), and the search's bound. */
  readonly foundAt: number;
  readonly schedulesMax: number;
  /**
   * Present when the server chose which of two or more lanes waiting on one lock went first in
   * the failing run (PostgreSQL, `ScheduledDetail.serverOrdered`): a replay of the schedule may
   * take another path, so it reproduces the failure only as often as the server repeats the order.
   */
  readonly serverOrdered?: true;
}

/** The outcome of looking for a scheduled reproduction when saving a concurrent counterexample. */
export type ReproductionSearch =
  | { readonly found: true; readonly reproduction: ScheduledReproduction }
  | {
      readonly found: false;
      readonly schedules: number;
      /** Why the search stopped early, when an error stopped it (the case is saved anyway). */
      readonly error?: string;
    };

/**
 * Most runs of a scheduled case's own schedule when a passing run of it was server-ordered: the
 * replay stops at the first that fails. Which waiting lane the server lets on first is a race
 * between backends, often lopsided; a path that comes up in one run of five is missed by all 20
 * with a chance of about 1% (0.8^20), and a miss costs an honest `notReproduced`, never a `held`.
 * A small case's scheduled run on PostgreSQL takes a fraction of a second, so the bound costs
 * seconds.
 */
export const SERVER_ORDERED_RUNS = 20;

/** Schedules a replay searches by default (and a save, for a concurrent counterexample). */
export const DEFAULT_SCHEDULES_MAX = 200;
