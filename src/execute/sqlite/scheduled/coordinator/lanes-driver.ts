/**
 * SQLite's lanes as a driver of the one grant loop (`../../../schedule/gated-step.ts`): worker
 * threads parking on shared memory, or inline lanes replayed on the coordinator's thread, both
 * behind `Lanes`. A grant is stored in the lane's slot (with its run-ahead budget); the lane's
 * next report is read synchronously, under the call budget. Its methods are tasks (`task.ts`):
 * they wait for a promise only to start a worker or stop one; an inline lane's async call is
 * settled on the microtask queue, inside the stretch (`SettleNow`), not waited for.
 */

import { ReceiptcheckError } from '../../../../errors.ts';
import type { GrantKind } from '../../../../types/scheduled-trace.ts';
import { CallHung } from '../../../runtime/call-watch.ts';
import { type Task, wait } from '../../../runtime/task.ts';
import type { Stall } from '../../../schedule/decide.ts';
import type { LaneDriver, LaneReport, LaunchPlan } from '../../../schedule/lane-driver.ts';
import type { LaneState } from '../../../schedule/lane-state.ts';
import { AwaitingCall, type Lane } from '../lanes.ts';
import { Grant, type GrantCode } from '../protocol.ts';
import { applyScopeChange, type StepContext } from './step-context.ts';

const GRANTS: Record<GrantKind, GrantCode> = {
  run: Grant.run,
  fault: Grant.fault,
  crash: Grant.crash,
  giveUp: Grant.giveUp,
};

/** One gated step's SQLite lanes. */
export class LanesDriver implements LaneDriver {
  readonly runAheadMax: number;
  readonly crashKills: boolean;
  private readonly workers = new Map<number, Lane>();

  constructor(
    private readonly ctx: StepContext,
    private readonly step: number,
  ) {
    this.runAheadMax = ctx.runAheadMax;
    this.crashKills = ctx.crashMode === 'thread';
  }

  /** Workers start as each lane is launched, in lane order: nothing to open first. */
  open(): Task<void> {
    return wait(undefined);
  }

  *launch(s: LaneState, plan: LaunchPlan): Task<boolean> {
    const worker = yield* wait(this.ctx.lanes.get(s.lane));
    this.workers.set(s.lane, worker);
    const { dbPath } = this.ctx;
    const e = s.event;
    if (e.kind === 'call') {
      const principal = this.ctx.principals[e.client];
      if (!principal)
        throw new RangeError(`step ${this.step + 1}: no principal for client ${e.client}`);
      const { parkAtStart, parkAtReply, crashAt, faultAt } = plan;
      worker.send({
        type: 'call',
        dbPath,
        principal,
        event: e,
        parkAtStart,
        parkAtReply,
        crashAt,
        faultAt,
      });
    } else if (e.kind !== 'revoke' && e.kind !== 'restore')
      worker.send({ type: 'world', dbPath, event: e });
    return true;
  }

  /**
   * Waits for the lane's next report. An inline lane runs the handler right here, under the call
   * budget; a thread lane is waited for at most the budget. Either way a lane that does not get
   * there in time is a hang.
   */
  *next(s: LaneState): Task<LaneReport> {
    const worker = this.workers.get(s.lane) as Lane;
    const { watch } = this.ctx;
    const activity = { step: this.step, lane: s.lane, event: s.event };
    yield* watch.enter(activity);
    let report = worker.next(this.ctx.callTimeoutMs);
    // An inline lane's call returned a promise: the microtasks run now, in this stretch, under
    // the same budget, so a loop after an await is stopped and named like one before it.
    while (report instanceof AwaitingCall) report = report.resume(yield report.settle);
    if (!report) throw new CallHung(watch.hang(activity, worker.onThisThread ? 'busy' : 'thread'));
    watch.leave(worker.onThisThread ? 'busy' : 'thread');
    switch (report.type) {
      case 'failed':
        throw ReceiptcheckError.fromData(report.error);
      case 'start':
      case 'crashed':
      case 'statement':
      case 'blocked':
      case 'reply':
      case 'done':
        return report;
      default:
        throw new Error(`a worker reported ${report.type} in the middle of a gated step`);
    }
  }

  *grant(s: LaneState, kind: GrantKind, budget: number): Task<LaneReport | undefined> {
    (this.workers.get(s.lane) as Lane).grant(GRANTS[kind], budget);
    if (s.point === 'reply' && kind === 'run') return undefined;
    return yield* this.next(s);
  }

  *kill(s: LaneState): Task<void> {
    yield* wait(this.ctx.lanes.kill(s.lane));
  }

  applyScope(client: number, granted: boolean): void {
    applyScopeChange(this.ctx, client, granted);
  }

  stall(d: Stall, jumpMs: number): { readonly sql: string } {
    return {
      sql: `lanes ${d.lanes.map((l) => l + 1).join(', ')} all blocked; nothing running can release the lock; the virtual clock jumps ${jumpMs} ms to the first busy timeout`,
    };
  }
}
