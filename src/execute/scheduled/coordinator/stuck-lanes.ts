/**
 * What the coordinator does when a step's lanes cannot go on by themselves: a stall (every live
 * lane blocked on a lock nothing running can release), written down as the virtual clock's jump,
 * and a livelock (grants used up), whose lanes are stopped and reported unexpected. Kept apart
 * from `gated-step.ts`, which grants; these only end or skip ahead.
 */
import type { TraceEntry } from '../../../types/scheduled-trace.ts';
import { type Task, wait } from '../../task.ts';
import type { LaneState } from './lane-state.ts';
import type { StepContext } from './step-context.ts';

/** The trace entry of a stall at `clock`: `lanes` all blocked, the clock jumping to `until`. */
export function stallEntry(
  step: number,
  lanes: readonly number[],
  clock: number,
  until: number,
): TraceEntry {
  return {
    step,
    lane: -1,
    point: 'stall',
    grant: 'run',
    sql: `lanes ${lanes.map((l) => l + 1).join(', ')} all blocked; nothing running can release the lock; the virtual clock jumps ${until - clock} ms to the first busy timeout`,
  };
}

/** Lanes that never finish: each is stopped (its transaction rolls back) and reported unexpected. */
export function* stopLivelock(
  ctx: StepContext,
  step: number,
  live: readonly LaneState[],
): Task<void> {
  for (const s of live) {
    ctx.entries.push({
      step,
      lane: s.lane,
      point: s.point,
      grant: 'crash',
      ...(s.sql ? { sql: s.sql } : {}),
    });
    yield* wait(ctx.lanes.kill(s.lane));
    s.status = 'done';
    s.observed = {
      kind: 'unexpected',
      message: `livelock: lane ${s.lane + 1} of step ${step + 1} did not finish within ${ctx.grantsMax} scheduler grants (a handler retrying a lock forever?)`,
    };
  }
}
