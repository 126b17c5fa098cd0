/**
 * PostgreSQL's lanes as a driver of the one grant loop (`../../schedule/gated-step.ts`). Each
 * lane is an async task on its own connection (`lane-connection.ts`); at every statement it stops
 * and waits. The loop picks the lane that goes next exactly as on SQLite; this driver sends that
 * lane's statement itself and waits until the statement either answers or is seen waiting on a
 * lock (`lock-watch.ts`). A waiting lane counts as blocked (the trace says so) and the loop goes
 * on with the others; the server wakes it when the lock goes, and it runs on when the scheduler
 * picks it again. After every grant every woken statement finishes or waits again before the
 * next, so what a lane meets never depends on how fast another ran.
 *
 * A crash at a point rolls the lane's transaction back and resets its session, as a new backend
 * would have it (`end`); a lane waiting on a lock has its backend ended (`pg_terminate_backend`).
 * Either way its locks go and its client hears nothing. A fault makes the lane's chosen write
 * raise an integrity error on the server instead of running (`deadlock.ts`). A lane that closes a
 * wait-for cycle gets PostgreSQL's deadlock error.
 *
 * One order the schedule does not decide: when a lane lets go of what two or more others wait on
 * (its transaction ends, or its backend), the server wakes them all, and which goes first is a
 * race between their backends. The step's `ServerOrder` hears of every grant and crash (in
 * `ServerLaneDriver`), and the run is marked when that happened (`server-order.ts`).
 *
 * A lane's connection is the session's (`../postgres-session.ts`): opened when a step first needs
 * it, kept from step to step and from run to run, replaced only when its backend had to be ended.
 */
import type { Event } from '../../../model/events.ts';
import { leftOpen } from '../../../model/outcome.ts';
import type { StepSchedule } from '../../../types/schedule.ts';
import type { GrantKind, LaneRecord } from '../../../types/scheduled-trace.ts';
import { type Task, wait } from '../../runtime/task.ts';
import { CrashSignal } from '../../schedule/crash-signal.ts';
import { GatedStep } from '../../schedule/gated-step.ts';
import { runGatedStepAsync } from '../../schedule/gated-step-async.ts';
import type { LaneReport, LaunchPlan } from '../../schedule/lane-driver.ts';
import type { LaneState } from '../../schedule/lane-state.ts';
import { paramText } from '../../schedule/param-text.ts';
import { worldEvent } from '../postgres-events.ts';
import { FAULT_SQL } from './deadlock.ts';
import { type LaneFlight, LaneFlights } from './lane-flights.ts';
import { LaneHung } from './lane-hung.ts';
import { StatementHung } from './lock-watch.ts';
import { ServerLaneDriver } from './server-lane-driver.ts';
import type { ServerOrder } from './server-order.ts';
import { callHandler, type PgStepContext } from './step-context.ts';

/** Runs the lanes of step `step` under `plan`; returns each lane's record. */
export async function runPgGatedStep(
  ctx: PgStepContext,
  step: number,
  events: readonly Event[],
  plan: StepSchedule,
): Promise<LaneRecord[]> {
  const driver = new PgLaneDriver(ctx, step);
  return runGatedStepAsync(new GatedStep(ctx, driver, step, events, plan), (s) => driver.end(s));
}

/** Where a PostgreSQL lane's plugin code stops: a statement, its reply, or a world event's end. */
type Reached = Extract<LaneReport, { type: 'statement' | 'reply' | 'done' }>;

/** One gated step's PostgreSQL lanes. */
class PgLaneDriver extends ServerLaneDriver {
  private readonly flights: LaneFlights;

  constructor(
    private readonly ctx: PgStepContext,
    step: number,
  ) {
    super(ctx, step);
    this.flights = new LaneFlights(
      ctx.watch,
      ctx.callTimeoutMs,
      ctx.sessionLocks,
      ctx.serverOrdered,
    );
  }

  /** Opens the lanes' connections side by side (a lane's stays open from step to step until it crashes). */
  *open(lanes: readonly LaneState[]): Task<void> {
    const conns = yield* wait(Promise.all(lanes.map((s) => this.ctx.lane(s.lane))));
    for (const [i, s] of lanes.entries()) this.flights.add(s.lane, conns[i] as LaneFlight['conn']);
  }

  launch(s: LaneState, plan: LaunchPlan): Task<boolean> {
    if (plan.parkAtStart) return wait(false); // parked at its start, a point of its own
    this.start(s);
    return wait(true);
  }

  *next(s: LaneState): Task<LaneReport> {
    return yield* wait(this.report(s));
  }

  protected get order(): ServerOrder {
    return this.flights.order;
  }

  /** Lets every blocked lane's statement that a lock release woke finish, or wait again; its answer is kept. */
  protected *settleWoken(lanes: readonly LaneState[]): Task<void> {
    for (const s of lanes)
      if (s.status === 'blocked' && this.flights.waiting(s.lane)) yield* wait(this.settle(s));
  }

  /**
   * Ends the lane here, its client hearing nothing: its transaction rolls back and its locks go,
   * as when its backend ends. A lane at a point (no statement on the server) keeps its backend,
   * rolled back and its session reset (`restart`); a lane waiting on a lock has its backend ended.
   */
  protected async endHere(s: LaneState): Promise<void> {
    const c = this.flights.get(s.lane);
    if (!c) return;
    c.conn.crashed = true;
    if (this.flights.waiting(s.lane) || !(await this.ctx.restart(s.lane))) {
      this.ctx.retire(s.lane);
      try {
        await this.ctx.watch.terminate(c.conn.pid, this.ctx.callTimeoutMs);
      } catch {
        throw new LaneHung(this.step, s.lane, this.ctx.callTimeoutMs, s.event);
      }
      void c.conn.close();
    }
    c.conn.resume({ error: new CrashSignal() });
  }

  /** Sends (or, when blocked, waits on) the lane's statement and answers the plugin with what came. */
  protected async statement(s: LaneState, kind: GrantKind): Promise<LaneReport> {
    if (s.status === 'parked') {
      const fault = kind === 'fault';
      const values = fault ? undefined : this.flights.get(s.lane)?.values;
      this.flights.send(s.lane, fault ? FAULT_SQL : (s.sql ?? ''), values, fault || s.write);
    }
    // PostgreSQL waits for ever (no lock_timeout).
    if ((await this.settle(s)) === 'blocked')
      return { type: 'blocked', timeoutMs: Number.POSITIVE_INFINITY };
    const { answer, end } = this.flights.take(s.lane);
    this.flights.get(s.lane)?.conn.resume(answer);
    return { ...(await this.report(s)), prev: end };
  }

  /** The lane's statement answered (a deadlock victim's included) or waits on a lock; a hang past the budget. */
  private async settle(s: LaneState): Promise<'done' | 'blocked'> {
    try {
      return await this.flights.settle(s.lane);
    } catch (thrown) {
      if (!(thrown instanceof StatementHung)) throw thrown;
      throw new LaneHung(this.step, s.lane, this.ctx.callTimeoutMs, s.event);
    }
  }

  /** Starts the lane's plugin code: a call as the principal stands now, or a world event. */
  protected start(s: LaneState): void {
    const { conn } = this.flights.get(s.lane) as LaneFlight;
    const e = s.event;
    const { plugin } = this.ctx;
    if (e.kind === 'call') {
      const principal = this.ctx.principals[e.client];
      if (!principal)
        throw new RangeError(`step ${this.step + 1}: no principal for client ${e.client}`);
      void callHandler(plugin, conn.proxy, principal, e).then((observed) =>
        conn.post({ type: 'reply', observed }),
      );
    } else if (e.kind !== 'revoke' && e.kind !== 'restore')
      worldEvent(plugin, conn.proxy, e).then(
        () => conn.post({ type: 'done' }),
        (error: unknown) => conn.post({ type: 'failed', error }),
      );
  }

  /** The lane's next report (bounded by the call budget); a transaction it left open is rolled back. */
  private async report(s: LaneState): Promise<Reached> {
    const c = this.flights.get(s.lane) as LaneFlight;
    const report = await c.conn.next(this.ctx.callTimeoutMs);
    if (!report) throw new LaneHung(this.step, s.lane, this.ctx.callTimeoutMs, s.event);
    switch (report.type) {
      case 'statement':
        c.values = report.values;
        return {
          type: 'statement',
          sql: report.sql,
          write: report.write,
          params: paramText(report.values),
          ...(report.slept ? { slept: true } : {}),
        };
      case 'failed':
        throw report.error;
      case 'done':
        return { type: 'done', freed: await this.rollbackLeak(c) };
      case 'reply': {
        const freed = await this.rollbackLeak(c);
        const slept = report.slept === true && s.parksAtReply;
        return {
          type: 'reply',
          // A transaction the handler left open (rolled back by now) is a failure of the call.
          observed: freed ? leftOpen(report.observed) : report.observed,
          parked: s.parksAtReply,
          freed,
          ...(slept ? { slept } : {}),
        };
      }
    }
  }

  /** A transaction the plugin left open would hold its locks against every other lane: rolled back. */
  private async rollbackLeak(c: LaneFlight): Promise<boolean> {
    if (!c.conn.inTransaction) return false;
    await c.conn.client.query('ROLLBACK');
    c.changes.reset();
    return true;
  }
}
