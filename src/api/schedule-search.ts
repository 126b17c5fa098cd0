/**
 * Searches scheduled mode for an interleaving under which a case's steps fail: the one way to
 * reproduce, deterministically, a failure first seen on real threads. A saved schedule goes
 * first; then the lane-order run, which also tells how many decisions each group has; then the
 * candidates of `generate/schedule-candidates.ts`, up to the bound. Stops at the first failure.
 */

import { scheduleCandidates } from '../generate/schedule-candidates.ts';
import type { Step } from '../model/events.ts';
import type { CaseFile } from '../types/case-file.ts';
import type { RunDetail } from '../types/execution.ts';
import type { CaseResult } from '../types/results.ts';
import type { Schedule } from '../types/schedule.ts';
import { caseResultOf, executeCase, prepareCase, type RunCaseOptions } from './run-case.ts';

/** What to search, and how far. */
export interface ScheduleSearchOptions extends Omit<RunCaseOptions, 'mode'> {
  /** Most schedules searched, at least 1 (the lane-order run included; `first` not counted). */
  readonly schedulesMax: number;
  /** A schedule to try before the search, e.g. the one saved with the case. */
  readonly first?: Schedule;
}

/** A schedule that made the case fail, and the failing run. */
export interface FoundSchedule {
  readonly schedule: Schedule;
  /** Which run found it, 1-based, counting `first`. */
  readonly at: number;
  readonly traceHash: string;
  /** The server chose which of two or more waiting lanes went first (`ScheduledDetail.serverOrdered`). */
  readonly serverOrdered: boolean;
  readonly result: CaseResult;
}

/** What a search came to: how many schedules ran, and the failing one if any. */
export interface ScheduleSearch {
  /** Schedules run, `first` included. */
  readonly tried: number;
  readonly found?: FoundSchedule;
  /** The last run's result (the failing one when found). */
  readonly last: CaseResult;
}

/** Runs `c` in scheduled mode under saved, systematic and drawn schedules until one fails. */
export async function searchSchedules(
  c: CaseFile,
  options: ScheduleSearchOptions,
): Promise<ScheduleSearch> {
  const prepared = await prepareCase(c, { ...options, mode: 'scheduled' });
  let tried = 0;
  let last: CaseResult | undefined;
  let lastDetail: RunDetail | undefined;
  const attempt = async (schedule: Schedule): Promise<FoundSchedule | undefined> => {
    const run = await executeCase(prepared, c.steps, { schedule });
    tried++;
    last = caseResultOf(c, prepared, run);
    lastDetail = run.detail;
    if (last.verdict === 'passed') return undefined;
    const scheduled = run.detail?.mode === 'scheduled' ? run.detail : undefined;
    const traceHash = scheduled?.traceHash ?? '';
    const serverOrdered = scheduled?.serverOrdered === true;
    return { schedule, at: tried, traceHash, serverOrdered, result: last };
  };
  const done = (found?: FoundSchedule): ScheduleSearch => ({
    tried,
    ...(found ? { found } : {}),
    last: last as CaseResult,
  });
  try {
    if (options.first) {
      const found = await attempt(options.first);
      if (found) return done(found);
    }
    const laneOrder = await attempt([]);
    if (laneOrder) return done(laneOrder);
    const decisions = decisionsPerStep(lastDetail, c.steps);
    for (const schedule of scheduleCandidates(c.steps, decisions, options.schedulesMax - 1)) {
      const found = await attempt(schedule);
      if (found) return done(found);
    }
    return done();
  } finally {
    await prepared.runner.close();
  }
}

/** For each step, how often the run chose among several lanes (0 for plain steps). */
export function decisionsPerStep(detail: RunDetail | undefined, steps: readonly Step[]): number[] {
  const counts = steps.map(() => 0);
  if (detail?.mode !== 'scheduled') return counts;
  for (const e of detail.entries) if (e.chose) counts[e.step] = (counts[e.step] ?? 0) + 1;
  return counts;
}
