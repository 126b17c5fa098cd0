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
 * the lanes still running are stopped and reported as unexpected errors.
 */
import type { StepSchedule } from '../../generate/schedule.ts';
import type { Event } from '../../model/events.ts';
import { type Principal, WRITE_SCOPE, withWriteScope } from '../../model/world.ts';
import type { LaneRecord, TraceEntry } from '../../types/scheduled-trace.ts';
import { GatedStep } from './gated-step.ts';
import { laneRecord } from './lane-state.ts';
import type { Lanes } from './lanes.ts';

/** What every step of a run shares. */
export interface StepContext {
  readonly lanes: Lanes;
  readonly dbPath: string;
  /** Current principals; scope lanes replace them. */
  principals: readonly Principal[];
  readonly entries: TraceEntry[];
  readonly callTimeoutMs: number;
  readonly grantsMax: number;
  /** `connection`: a crash closes the lane's connection; `thread`: it terminates the worker. */
  readonly crashMode: 'connection' | 'thread';
  /** Most points one grant lets a worker pass (0: park at every point). */
  readonly runAheadMax: number;
}

/** Runs the lanes of step `step` gated, under `plan`; returns each lane's record. */
export async function runGatedStep(
  ctx: StepContext,
  step: number,
  events: readonly Event[],
  plan: StepSchedule,
): Promise<LaneRecord[]> {
  const run = new GatedStep(ctx, step, events, plan);
  await run.start();
  await run.loop();
  return run.lanes.map((s) => laneRecord(step, s, ctx.entries.length));
}

/** Writes every current principal's write scope into the table lanes read at their start. */
export function storeScopes(ctx: StepContext): void {
  for (const [i, p] of ctx.principals.entries())
    Atomics.store(ctx.lanes.scopes, i, p.scopes.includes(WRITE_SCOPE) ? 1 : 0);
}

/**
 * A revoke or restore takes effect: in the principals the next calls are sent as, and in the
 * table a lane reads when its start is granted.
 */
export function applyScopeChange(ctx: StepContext, client: number, granted: boolean): void {
  ctx.principals = withWriteScope(ctx.principals, client, granted);
  Atomics.store(ctx.lanes.scopes, client, granted ? 1 : 0);
}
