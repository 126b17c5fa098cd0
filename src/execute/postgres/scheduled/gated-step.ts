/**
 * One step under the scheduler on PostgreSQL, lane by lane. Each lane is an async task on its own
 * connection (`lane-connection.ts`); at every statement it stops and waits. The coordinator picks
 * the lane that goes next exactly as SQLite mode does (`decide`: the drawn choices over the lanes
 * that can run), sends that lane's statement itself, and waits until the statement either answers
 * or is seen waiting on a lock (`lock-watch.ts`). A waiting lane counts as blocked (the trace says
 * so) and the coordinator goes on with the others; the server wakes it when the lock goes, and it
 * runs on when the scheduler picks it again. Before every grant the coordinator lets every woken
 * statement finish or wait again, so what a lane meets never depends on how fast another ran.
 *
 * A crash ends the lane's backend (`pg_terminate_backend`) at its point: its transaction rolls
 * back, its client hears nothing. A fault makes the lane's chosen write raise an integrity error
 * on the server instead of running (`deadlock.ts`). A lane that closes a wait-for cycle gets
 * PostgreSQL's deadlock error. Past `grantsMax` grants the lanes still running are a livelock.
 */
import { type Event, unsentOutcome } from '../../../model/events.ts';
import { withWriteScope } from '../../../model/world.ts';
import type { StepSchedule } from '../../../types/schedule.ts';
import type { GrantKind, LaneRecord } from '../../../types/scheduled-trace.ts';
import { CrashSignal } from '../../schedule/crash-signal.ts';
import { decide } from '../../schedule/decide.ts';
import { GrantBook } from '../../schedule/grant-book.ts';
import {
  arrive,
  block,
  finish,
  type LaneState,
  laneRecord,
  laneState,
} from '../../schedule/lane-state.ts';
import { paramText } from '../../schedule/param-text.ts';
import { worldEvent } from '../postgres-events.ts';
import { FAULT_SQL } from './deadlock.ts';
import type { LaneReport } from './lane-connection.ts';
import { type LaneFlight, LaneFlights } from './lane-flights.ts';
import { LaneHung } from './lane-hung.ts';
import { StatementHung } from './lock-watch.ts';
import { callHandler, type PgStepContext } from './step-context.ts';

/** Runs the lanes of step `step` under `plan`; returns each lane's record. */
export async function runPgGatedStep(
  ctx: PgStepContext,
  step: number,
  events: readonly Event[],
  plan: StepSchedule,
): Promise<LaneRecord[]> {
  const run = new PgGatedStep(ctx, step, events, plan);
  try {
    await run.start();
    await run.loop();
  } finally {
    await run.crashAll();
  }
  return run.lanes.map((s) => laneRecord(step, s, ctx.entries.length));
}

class PgGatedStep {
  readonly lanes: LaneState[];
  private readonly flights: LaneFlights;
  private readonly book: GrantBook;

  constructor(
    private readonly ctx: PgStepContext,
    private readonly step: number,
    events: readonly Event[],
    plan: StepSchedule,
  ) {
    this.lanes = events.map((event, lane) => laneState(lane, event, 'start'));
    this.flights = new LaneFlights(ctx.watch, ctx.callTimeoutMs);
    this.book = new GrantBook(step, plan, events.length, ctx);
  }

  /** Opens each lane's connection and runs each lane that need not park at its start up to its first point. */
  async start(): Promise<void> {
    const scopeRace = this.lanes.some(
      (s) => s.event.kind === 'revoke' || s.event.kind === 'restore',
    );
    const started: LaneState[] = [];
    // Connections open side by side (a lane's stays open from step to step until it crashes).
    const opening = this.lanes.map((s) =>
      s.event.kind === 'revoke' || s.event.kind === 'restore' || unsentOutcome(s.event)
        ? undefined
        : this.ctx.lane(s.lane),
    );
    await Promise.all(opening);
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
      const conn = await this.ctx.lane(s.lane);
      this.flights.add(s.lane, conn);
      if (e.kind === 'call') {
        const crashAt = this.book.crashAt(s.lane);
        s.parksAtReply = crashAt > 0;
        if (scopeRace || crashAt === 0) {
          s.yieldIndex = 0; // parked at its start, a point of its own
          continue;
        }
        s.yieldIndex = 0;
      }
      this.launch(s);
      started.push(s);
    }
    for (const s of started) await this.awaitReport(s);
  }

  /** Grants until every lane is done or crashed. */
  async loop(): Promise<void> {
    for (;;) {
      const live = this.lanes.filter((s) => s.status === 'parked' || s.status === 'blocked');
      if (live.length === 0) return;
      if (this.book.grants >= this.ctx.grantsMax) return this.stopLivelock(live);
      const d = decide(live, this.book.state());
      if (d.kind !== 'choose') {
        // PostgreSQL waits for ever, and the cycles lanes close are broken as they close: what
        // is left waits on locks no running lane holds (the coordinator's, or a lane's whose
        // call returned: a session-level lock left behind), which nothing will release.
        this.ctx.entries.push({
          step: this.step,
          lane: -1,
          point: 'stall',
          grant: 'run',
          sql: `lanes ${live.map((s) => s.lane + 1).join(', ')} all wait on locks no running lane holds`,
        });
        const first = live[0];
        throw new LaneHung(
          this.step,
          first?.lane ?? 0,
          this.ctx.callTimeoutMs,
          first?.event,
          'locked',
        );
      }
      const s = this.lanes[d.lane] as LaneState;
      const kind = this.book.planned(s);
      this.book.grant(s, kind, d.chose);
      await this.carryOut(s, kind);
      await this.quiesce();
    }
  }

  /** Ends every lane still running (after an error), as a crash would; the error stays the one to report. */
  async crashAll(): Promise<void> {
    for (const s of this.lanes)
      if (s.status === 'parked' || s.status === 'blocked') await this.kill(s).catch(() => {});
  }

  /** What the grant means at the lane's point. */
  private async carryOut(s: LaneState, kind: GrantKind): Promise<void> {
    if (s.point === 'scope') {
      const e = s.event;
      if (e.kind === 'revoke' || e.kind === 'restore')
        this.ctx.principals = withWriteScope(
          this.ctx.principals,
          e.client,
          e.kind === 'restore',
          this.ctx.operation.scope,
        );
      if (s.entry) s.entry.result = 'ok';
      s.lastRunAt = s.entryAt;
      s.status = 'done';
      this.book.changed();
      return;
    }
    if (kind === 'crash') return this.kill(s);
    if (s.point === 'start') {
      this.launch(s);
      return this.awaitReport(s);
    }
    if (s.point === 'reply') {
      s.status = 'done';
      return;
    }
    if (s.status === 'parked') {
      const fault = kind === 'fault';
      const values = fault ? undefined : this.flights.get(s.lane)?.values;
      this.flights.send(s.lane, fault ? FAULT_SQL : (s.sql ?? ''), values, fault || s.write);
    }
    if ((await this.settle(s)) === 'blocked') {
      // PostgreSQL waits for ever (no lock_timeout).
      block(s, Number.POSITIVE_INFINITY, this.book.clock, this.book.epoch);
      return;
    }
    const { answer, end } = this.flights.take(s.lane);
    if (finish(s, end)) this.book.changed();
    s.status = 'parked';
    this.flights.get(s.lane)?.conn.resume(answer);
    await this.awaitReport(s);
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

  /**
   * Lets every blocked lane's statement that a lock release woke finish, or wait again, before
   * the next grant: its answer is kept for when the scheduler picks it.
   */
  private async quiesce(): Promise<void> {
    for (const s of this.lanes)
      if (s.status === 'blocked' && this.flights.waiting(s.lane)) await this.settle(s);
  }

  /** Starts the lane's plugin code: a call as the principal stands now, or a world event. */
  private launch(s: LaneState): void {
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

  /** Waits for the lane's next report (bounded by the call budget) and folds it in. */
  private async awaitReport(s: LaneState): Promise<void> {
    const c = this.flights.get(s.lane) as LaneFlight;
    const report: LaneReport | undefined = await c.conn.next(this.ctx.callTimeoutMs);
    if (!report) throw new LaneHung(this.step, s.lane, this.ctx.callTimeoutMs, s.event);
    switch (report.type) {
      case 'statement':
        c.values = report.values;
        arrive(s, 'statement', report.sql, report.write, paramText(report.values));
        return;
      case 'failed':
        throw report.error;
      case 'done':
        await this.rollbackLeak(c);
        s.status = 'done';
        return;
      case 'reply':
        await this.rollbackLeak(c);
        s.observed = report.observed;
        if (s.parksAtReply) arrive(s, 'reply', undefined, false);
        else s.status = 'done';
        return;
    }
  }

  /** A transaction the plugin left open would hold its locks against every other lane: rolled back. */
  private async rollbackLeak(c: LaneFlight): Promise<void> {
    if (!c.conn.inTransaction) return;
    await c.conn.client.query('ROLLBACK');
    c.changes.reset();
    this.book.changed();
  }

  /** Crashes the lane here: its backend ends (rolled back, locks gone), its client hears nothing. */
  private async kill(s: LaneState): Promise<void> {
    const c = this.flights.get(s.lane);
    s.status = 'crashed';
    this.book.changed();
    if (!c) return;
    c.conn.crashed = true;
    this.ctx.retire(s.lane);
    try {
      await this.ctx.watch.terminate(c.conn.pid, this.ctx.callTimeoutMs);
    } catch {
      throw new LaneHung(this.step, s.lane, this.ctx.callTimeoutMs, s.event);
    }
    c.conn.resume({ error: new CrashSignal() });
    void c.conn.close();
  }

  /** Lanes that never finish: each is stopped and reported as an unexpected error. */
  private async stopLivelock(live: readonly LaneState[]): Promise<void> {
    for (const s of live) {
      this.ctx.entries.push({
        step: this.step,
        lane: s.lane,
        point: s.point,
        grant: 'crash',
        ...(s.sql ? { sql: s.sql } : {}),
      });
      await this.kill(s);
      s.status = 'done';
      s.observed = {
        kind: 'unexpected',
        message: `livelock: lane ${s.lane + 1} of step ${this.step + 1} did not finish within ${this.ctx.grantsMax} scheduler grants (a handler retrying a lock forever?)`,
      };
    }
  }
}
