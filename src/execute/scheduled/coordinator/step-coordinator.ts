/**
 * Runs one step under the scheduler: every lane parks at each yield point, and the coordinator
 * grants one lane at a time, so the interleaving is exactly the one the step's schedule entry
 * chooses (`decide.ts` says who goes next). The chosen lane runs, faults or crashes as the entry
 * says, and the coordinator blocks until that lane's next report: every other lane is parked,
 * so nothing else can happen meanwhile.
 *
 * With a statement grant goes a run-ahead budget: how many following decisions would pick the
 * same lane anyway. The worker passes that many points without parking and reports them with
 * its next report; they are recorded here exactly as if each had been granted (same entries,
 * same choices used), so only thread hand-offs are saved, never a decision.
 *
 * The virtual clock advances one ms per grant. Past `grantsMax` grants the step is a livelock:
 * the lanes still running are stopped and reported as unexpected errors. A lane that does not
 * reach its next point within the call budget is a hang: `CallHung` ends the run.
 */

import type { Event } from '../../../model/events.ts';
import type { StepSchedule } from '../../../types/schedule.ts';
import type { LaneRecord } from '../../../types/scheduled-trace.ts';
import { laneRecord } from '../../schedule/lane-state.ts';
import type { Task } from '../../task.ts';
import { GatedStep } from './gated-step.ts';
import type { StepContext } from './step-context.ts';

/** Runs the lanes of step `step` gated, under `plan`; returns each lane's record. A task. */
export function* runGatedStep(
  ctx: StepContext,
  step: number,
  events: readonly Event[],
  plan: StepSchedule,
): Task<LaneRecord[]> {
  const run = new GatedStep(ctx, step, events, plan);
  yield* run.start();
  yield* run.loop();
  return run.lanes.map((s) => laneRecord(step, s, ctx.entries.length));
}
