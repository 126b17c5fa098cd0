/**
 * One step under the scheduler, lane by lane: the coordinator's side of every grant, every report
 * and every point a worker passed under its run-ahead budget (see `step-coordinator.ts`). Its
 * methods are tasks (`task.ts`): they wait for a promise only to start a worker or stop one.
 */

import { ReceiptcheckError } from '../../../errors.ts';
import { type Event, unsentOutcome } from '../../../model/events.ts';
import type { StepSchedule } from '../../../types/schedule.ts';
import type { GrantKind } from '../../../types/scheduled-trace.ts';
import { CallHung } from '../../call-watch.ts';
import { decide, runAhead } from '../../schedule/decide.ts';
import { GrantBook } from '../../schedule/grant-book.ts';
import { arrive, block, finish, type LaneState, laneState } from '../../schedule/lane-state.ts';
import { type Task, wait } from '../../task.ts';
import type { Lane } from '../lanes.ts';
import { Grant, type GrantCode, type PassedPoint, type Report } from '../protocol.ts';
import { applyScopeChange, type StepContext } from './step-context.ts';

const GRANTS: Record<GrantKind, GrantCode> = {
  run: Grant.run,
  fault: Grant.fault,
  crash: Grant.crash,
  giveUp: Grant.giveUp,
};

/** The state of one gated step while it runs; `start()`, then `loop()`. */
export class GatedStep {
  readonly lanes: LaneState[];
  private readonly workers = new Map<number, Lane>();
  private readonly book: GrantBook;

  constructor(
    private readonly ctx: StepContext,
    private readonly step: number,
    events: readonly Event[],
    plan: StepSchedule,
  ) {
    this.lanes = events.map((event, lane) => laneState(lane, event, 'start'));
    this.book = new GrantBook(step, plan, events.length, ctx);
  }

  /**
   * Sends each lane its event, then waits for every lane to reach its first point. Lanes run
   * side by side only up to there: the handler's code before its first statement, on connections
   * already open, touching nothing shared, so the order they get there in does not matter.
   */
  *start(): Task<void> {
    const started: LaneState[] = [];
    const scopeRace = this.lanes.some(
      (s) => s.event.kind === 'revoke' || s.event.kind === 'restore',
    );
    for (const s of this.lanes) {
      const e = s.event;
      const unsent = unsentOutcome(e);
      if (unsent) {
        s.status = 'done';
        s.observed = unsent;
        continue;
      }
      if (e.kind === 'revoke' || e.kind === 'restore') {
        s.point = 'scope';
        s.sql = `${e.kind} client ${e.client + 1}`;
        continue;
      }
      const worker = yield* wait(this.ctx.lanes.get(s.lane));
      this.workers.set(s.lane, worker);
      const dbPath = this.ctx.dbPath;
      if (e.kind === 'call') {
        const principal = this.ctx.principals[e.client];
        if (!principal)
          throw new RangeError(`step ${this.step + 1}: no principal for client ${e.client}`);
        const crashAt = this.book.crashAt(s.lane);
        const faultAt = this.book.faultAt(s.lane);
        const parkAtStart = scopeRace || crashAt === 0;
        s.parksAtReply = crashAt > 0;
        if (!parkAtStart) s.yieldIndex = 0;
        const { parksAtReply: parkAtReply } = s;
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
      } else worker.send({ type: 'world', dbPath, event: e });
      started.push(s);
    }
    for (const s of started) yield* this.await(s, this.workers.get(s.lane) as Lane);
  }

  /** Grants until every lane is done, crashed or stopped. */
  *loop(): Task<void> {
    for (;;) {
      const live = this.live();
      if (live.length === 0) return;
      if (this.book.grants >= this.ctx.grantsMax) return yield* this.stopLivelock(live);
      const d = decide(live, this.book.state());
      if (d.kind === 'stall') {
        this.ctx.entries.push({
          step: this.step,
          lane: -1,
          point: 'stall',
          grant: 'run',
          sql: `lanes ${d.lanes.map((l) => l + 1).join(', ')} all blocked; nothing running can release the lock; the virtual clock jumps ${d.until - this.book.clock} ms to the first busy timeout`,
        });
        this.book.clock = d.until;
        continue;
      }
      const s = this.lanes[d.lane] as LaneState;
      const chose = d.kind === 'choose' && d.chose;
      const kind = d.kind === 'giveUp' ? 'giveUp' : this.book.planned(s);
      this.book.grant(s, kind, chose);
      if (s.point === 'scope') {
        this.applyScope(s.event);
        if (s.entry) s.entry.result = 'ok';
        s.lastRunAt = s.entryAt;
        s.status = 'done';
        this.book.changed();
        continue;
      }
      if (kind === 'crash' && this.ctx.crashMode === 'thread') {
        yield* wait(this.ctx.lanes.kill(s.lane));
        s.status = 'crashed';
        this.book.changed();
        continue;
      }
      const worker = this.workers.get(s.lane) as Lane;
      const others = live.filter((o) => o !== s);
      const budget =
        kind === 'run' && s.point === 'statement'
          ? runAhead(
              s.lane,
              others,
              this.book.state(),
              Math.min(this.ctx.runAheadMax, this.ctx.grantsMax - this.book.grants),
            )
          : 0;
      worker.grant(GRANTS[kind], budget);
      if (s.point === 'reply' && kind === 'run') {
        s.status = 'done';
        continue;
      }
      yield* this.await(s, worker);
    }
  }

  private live(): LaneState[] {
    return this.lanes.filter((s) => s.status === 'parked' || s.status === 'blocked');
  }

  /**
   * Waits for the lane's next report and folds it in. An inline lane runs the handler right here,
   * under the call budget; a thread lane is waited for at most the budget. Either way a lane that
   * does not get there in time is a hang.
   */
  private *await(s: LaneState, worker: Lane): Task<void> {
    const { watch } = this.ctx;
    const activity = { step: this.step, lane: s.lane, event: s.event };
    yield* watch.enter(activity);
    const report = worker.next(this.ctx.callTimeoutMs);
    if (!report) throw new CallHung(watch.hang(activity, worker.onThisThread ? 'busy' : 'thread'));
    watch.leave(worker.onThisThread ? 'busy' : 'thread');
    this.absorb(s, report);
  }

  private absorb(s: LaneState, report: Report): void {
    switch (report.type) {
      case 'start':
        s.point = 'start';
        s.yieldIndex = 0;
        return;
      case 'crashed':
        s.status = 'crashed';
        this.book.changed();
        return;
      case 'failed':
        throw ReceiptcheckError.fromData(report.error);
      case 'statement':
      case 'blocked':
      case 'reply':
      case 'done':
        if (finish(s, report.prev)) this.book.changed();
        for (const p of report.passed) this.pass(s, p);
        break;
      default:
        throw new Error(`a worker reported ${report.type} in the middle of a gated step`);
    }
    if (report.type === 'statement')
      arrive(s, 'statement', report.sql, report.write, report.params);
    else if (report.type === 'blocked')
      block(s, report.timeoutMs, this.book.clock, this.book.epoch);
    else if (report.type === 'done') s.status = 'done';
    else if (report.type === 'reply') {
      s.observed = report.observed;
      if (report.parked) arrive(s, 'reply', undefined, false);
      else s.status = 'done';
    }
  }

  /** Records a point the worker passed under its budget, as the grant it stands for. */
  private pass(s: LaneState, p: PassedPoint): void {
    arrive(s, p.point, p.sql, p.write, p.params);
    const d = decide(this.live(), this.book.state());
    if (d.kind !== 'choose' || d.lane !== s.lane || this.book.planned(s) !== 'run')
      throw new Error(`step ${this.step + 1} lane ${s.lane + 1}: a run-ahead went past a decision`);
    this.book.grant(s, 'run', d.chose);
    if (p.point === 'reply' || p.end?.result === 'blocked') return;
    if (finish(s, p.end)) this.book.changed();
  }

  private applyScope(event: Event): void {
    if (event.kind !== 'revoke' && event.kind !== 'restore') return;
    applyScopeChange(this.ctx, event.client, event.kind === 'restore');
  }

  /** Lanes that never finish: each is stopped (its transaction rolls back) and reported unexpected. */
  private *stopLivelock(live: readonly LaneState[]): Task<void> {
    for (const s of live) {
      this.ctx.entries.push({
        step: this.step,
        lane: s.lane,
        point: s.point,
        grant: 'crash',
        ...(s.sql ? { sql: s.sql } : {}),
      });
      yield* wait(this.ctx.lanes.kill(s.lane));
      s.status = 'done';
      s.observed = {
        kind: 'unexpected',
        message: `livelock: lane ${s.lane + 1} of step ${this.step + 1} did not finish within ${this.ctx.grantsMax} scheduler grants (a handler retrying a lock forever?)`,
      };
    }
  }
}
