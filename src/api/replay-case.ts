/**
 * Replays a case file and says what the replay saw, never more: `reproduced`, `held`, or
 * `notReproduced`. A pass is `held` only where the run is exact: sequential mode, scheduled mode
 * with the case's own schedule (or a case not found on real threads: no schedule means run to
 * completion), and any case without a concurrent group, unless the server chose an order the
 * schedule did not (a PostgreSQL run where two or more lanes waited on one lock as it was let go,
 * `ScheduledDetail.serverOrdered`): that schedule is run again, at most `SERVER_ORDERED_RUNS`
 * times in all, and the verdict is `reproduced` or `notReproduced`. A concurrent group on real threads fails
 * only when timing allows, so such a case is searched in scheduled mode (its saved reproduction
 * first, then `searchSchedules`' bounded search) and, in concurrent mode, run once on real
 * threads; when none of that fails, the verdict is `notReproduced` with the schedules counted.
 * Used by `receiptcheck replay`.
 */
import { ReceiptcheckError } from '../errors.ts';
import { scheduleOfCase } from '../execute/schedule/schedule-of-case.ts';
import { isServicePath } from '../execute/service/service-path.ts';
import { scheduledReproductionOf } from '../report/counterexample-case.ts';
import { isServerOrdered } from '../report/run-detail.ts';
import type { CaseFile } from '../types/case-file.ts';
import { DEFAULT_SCHEDULES_MAX, type ReplayResult, SERVER_ORDERED_RUNS } from '../types/replay.ts';
import {
  caseResultOf,
  executeCase,
  prepareCase,
  type RunCaseOptions,
  runCase,
} from './run-case.ts';
import { searchSchedules } from './schedule-search.ts';

/** A case run's overrides, and the search's bound. */
export interface ReplayOptions extends RunCaseOptions {
  /** Most schedules searched for a timing-dependent case, 1–100,000. Default `DEFAULT_SCHEDULES_MAX` (200). */
  readonly schedulesMax?: number;
}

/** The search's ceiling: a bound, not a hang. */
export const SCHEDULES_MAX_LIMIT = 100_000;

/** Replays `c` (see the file comment for what each verdict rests on). */
export async function replayCase(c: CaseFile, options: ReplayOptions = {}): Promise<ReplayResult> {
  const schedulesMax = options.schedulesMax ?? DEFAULT_SCHEDULES_MAX;
  if (!Number.isSafeInteger(schedulesMax) || schedulesMax < 1 || schedulesMax > SCHEDULES_MAX_LIMIT)
    throw new ReceiptcheckError(
      'E_BAD_OPTION',
      `schedules must be an integer from 1 to ${SCHEDULES_MAX_LIMIT} (got ${schedulesMax})`,
    );
  const mode = options.mode ?? c.mode;
  const base = { schedules: 0, schedulesMax, realThreads: mode === 'concurrent' };
  const grouped = c.steps.some((s) => s.kind === 'concurrent');
  const fromThreads = grouped && c.mode === 'concurrent';
  if (mode === 'sequential' && fromThreads) {
    // Lane order is one interleaving of many: a pass in it says nothing of the race.
    const result = await runCase(c, options);
    const verdict = result.verdict === 'failed' ? 'reproduced' : 'notReproduced';
    return { ...base, verdict, route: 'lane order', result };
  }
  const timed =
    grouped &&
    (mode === 'concurrent' ||
      (mode === 'scheduled' && fromThreads && scheduleOfCase(c.extra) === undefined));
  if (!timed) return { ...base, ...(await exactReplay(c, options)) };
  // A described service's statements are out of the scheduler's reach: real threads only.
  if (mode === 'concurrent' && isServicePath(options.handler ?? c.handler)) {
    const threads = await runCase(c, options);
    const verdict = threads.verdict === 'failed' ? 'reproduced' : 'notReproduced';
    return { ...base, verdict, route: 'real threads', result: threads };
  }
  // A concurrent counterexample's saved reproduction, or a scheduled case's own schedule.
  const first = scheduledReproductionOf(c.extra)?.schedule ?? scheduleOfCase(c.extra);
  const search = await searchSchedules(c, {
    ...options,
    schedulesMax,
    ...(first ? { first } : {}),
  });
  const searched = { ...base, schedules: search.tried };
  if (search.found)
    return {
      ...searched,
      verdict: 'reproduced',
      route: first && search.found.at === 1 ? 'saved schedule' : 'schedule search',
      result: search.found.result,
      schedule: search.found.schedule,
    };
  if (mode !== 'concurrent')
    return { ...searched, verdict: 'notReproduced', route: 'schedule search', result: search.last };
  const threads = await runCase(c, options);
  return {
    ...searched,
    verdict: threads.verdict === 'failed' ? 'reproduced' : 'notReproduced',
    route: 'real threads',
    result: threads,
  };
}

/**
 * Runs `c` as it is (its own schedule, if any): `held` when it passes on an exact run. A run the
 * server ordered (`serverOrdered`) is not exact: the schedule is run again until one fails, at
 * most `SERVER_ORDERED_RUNS` in all, and a pass on every one is `notReproduced`.
 */
async function exactReplay(
  c: CaseFile,
  options: ReplayOptions,
): Promise<
  Pick<ReplayResult, 'verdict' | 'route' | 'result'> &
    Partial<Pick<ReplayResult, 'schedules' | 'schedulesMax'>>
> {
  const prepared = await prepareCase(c, options);
  try {
    const once = async () =>
      caseResultOf(c, prepared, await executeCase(prepared, c.steps, c.extra));
    let result = await once();
    if (!isServerOrdered(result.detail)) {
      const verdict = result.verdict === 'failed' ? 'reproduced' : 'held';
      return { verdict, route: 'exact', result };
    }
    let runs = 1;
    while (result.verdict === 'passed' && runs < SERVER_ORDERED_RUNS) {
      result = await once();
      runs++;
    }
    return {
      verdict: result.verdict === 'failed' ? 'reproduced' : 'notReproduced',
      route: 'repeated schedule',
      result,
      schedules: runs,
      schedulesMax: SERVER_ORDERED_RUNS,
    };
  } finally {
    await prepared.runner.close();
  }
}
