/**
 * One case's whole search: its interleavings first, then, when asked, every single crash and
 * store fault at every point those runs reached (`injection-plans.ts`), each under every
 * interleaving within the bound. The counts add up; the first phase's failure ends the search.
 * Pure logic over `run`, as `explore-schedules.ts`.
 */
import type { Schedule } from '../../types/schedule.ts';
import {
  type Exploration,
  type ExploreOptions,
  exploreSchedules,
  type ProbedRun,
} from './explore-schedules.ts';
import { InjectionPoints } from './injection-plans.ts';

/** The search's options, and whether crashes and faults are injected too. */
export interface CaseSearchOptions extends Omit<ExploreOptions, 'plans'> {
  readonly injections: boolean;
}

/** Searches one case (see the file comment). */
export async function exploreCase<R extends ProbedRun>(
  run: (schedule: Schedule) => Promise<R>,
  options: CaseSearchOptions,
): Promise<Exploration<R>> {
  const points = new InjectionPoints();
  const first = await exploreSchedules(async (schedule) => {
    const r = await run(schedule);
    points.note(r.decisions);
    return r;
  }, options);
  if (!options.injections || first.failure || !first.complete) return first;
  const limit = options.schedulesMax ?? Number.POSITIVE_INFINITY;
  const second = await exploreSchedules(run, {
    ...options,
    plans: points.plans(),
    schedulesMax: limit - first.runs,
  });
  return {
    runs: first.runs + second.runs,
    pruned: first.pruned + second.pruned,
    duplicates: first.duplicates + second.duplicates,
    beyondBound: first.beyondBound + second.beyondBound,
    complete: second.complete,
    ...(second.failure ? { failure: second.failure } : {}),
  };
}
