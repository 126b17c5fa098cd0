/**
 * A service's lanes as a driver of the one grant loop (`../../schedule/gated-step.ts`): the
 * sibling of PostgreSQL plugins' driver (`../../postgres/scheduled/pg-lane-driver.ts`) for a
 * service in its own process. A call lane is a request through the protocol client; a world
 * event lane is the world's SQL on a harness connection through the same proxy. Every statement
 * either sends reaches the proxy, which holds it (`statement-gate.ts`): the lane is parked there.
 * A grant lets the statement go and waits until it is answered or seen waiting on a lock
 * (`lock-watch.ts`, `pg_blocking_pids`), when the lane counts as blocked; a lane that closes a
 * wait-for cycle has its statement cancelled (`deadlock.ts`). The HTTP reply is the lane's last
 * point.
 *
 * A crash closes the lane's connections at the proxy (the service's driver sees them die at
 * once), ends their backends (`pg_terminate_backend`: the transaction rolls back, the locks go)
 * and abandons its request, so its client hears nothing. Injected faults would need the proxy
 * to rewrite a statement, which it does not: service schedules draw none.
 *
 * A blocked lane woken by another's grant gets its answer from the server at once, and its code
 * goes on inside the service; `afterGrant` waits until it reaches its next point (held at the
 * proxy, or its reply) before anything else is granted, so two lanes' code never run together
 * after a grant. Its report is kept until the loop grants the lane again.
 *
 * When a lane lets go of what two or more others wait on, the server chooses which goes first,
 * as for a plugin's lanes: its `ServerOrder` hears of every grant and crash (in `ServerLaneDriver`),
 * and the run is marked when that happened (`server-order.ts`).
 */
import { ReceiptcheckError } from '../../../errors.ts';
import type { Event } from '../../../model/events.ts';
import type { StepSchedule } from '../../../types/schedule.ts';
import type { GrantKind, LaneRecord } from '../../../types/scheduled-trace.ts';
import { worldEvent } from '../../postgres/postgres-events.ts';
import { cycleThrough } from '../../postgres/scheduled/deadlock.ts';
import { LaneHung } from '../../postgres/scheduled/lane-hung.ts';
import { StatementHung } from '../../postgres/scheduled/lock-watch.ts';
import { ServerLaneDriver } from '../../postgres/scheduled/server-lane-driver.ts';
import { type QueueView, ServerOrder } from '../../postgres/scheduled/server-order.ts';
import { narrow } from '../../postgres/session-lane.ts';
import { type Task, wait } from '../../runtime/task.ts';
import { GatedStep } from '../../schedule/gated-step.ts';
import { runGatedStepAsync } from '../../schedule/gated-step-async.ts';
import type { LaneReport, LaunchPlan } from '../../schedule/lane-driver.ts';
import type { LaneState } from '../../schedule/lane-state.ts';
import { paramText } from '../../schedule/param-text.ts';
import type { OutStatement } from './out-statement.ts';
import { type ServiceStepContext, sendCall } from './service-step-context.ts';

/** Runs the lanes of step `step` under `plan`; returns each lane's record. */
export async function runServiceGatedStep(
  ctx: ServiceStepContext,
  step: number,
  events: readonly Event[],
  plan: StepSchedule,
): Promise<LaneRecord[]> {
  try {
    const driver = new ServiceLaneDriver(ctx, step);
    const gated = new GatedStep(ctx, driver, step, events, plan);
    return await runGatedStepAsync(gated, (s) => driver.end(s));
  } finally {
    for (const [lane] of events.entries()) ctx.gate.forget(lane);
  }
}

/** Where a service lane stops: a statement, its reply, or a world event's end. */
type Reached = Extract<LaneReport, { type: 'statement' | 'reply' | 'done' }>;

/** One gated step's service lanes. */
class ServiceLaneDriver extends ServerLaneDriver implements QueueView {
  /** Each lane's statement let go to the server, until its grant reports how it ended. */
  private readonly outs = new Map<number, OutStatement>();
  /** Reports of lanes that a grant woke and that ran on to their next point (`afterGrant`). */
  private readonly kept = new Map<number, Reached>();
  /** The lanes that run code: a call's or a world event's. */
  private running: readonly number[] = [];
  protected readonly order: ServerOrder;

  constructor(
    private readonly ctx: ServiceStepContext,
    step: number,
  ) {
    super(ctx, step);
    this.order = new ServerOrder(ctx.watch, this, ctx.serverOrdered);
  }

  laneIds(): Iterable<number> {
    return this.running;
  }

  waitingPid(lane: number): number | undefined {
    const out = this.outs.get(lane);
    return out && !out.settled ? out.pid : undefined;
  }

  holderPids(lane: number): readonly number[] {
    return this.ctx.gate.pidsOf(lane);
  }

  /** World event lanes get their connection through the proxy, owned by the lane. */
  *open(lanes: readonly LaneState[]): Task<void> {
    this.running = lanes.map((s) => s.lane);
    for (const s of lanes)
      if (s.event.kind !== 'call') yield* wait(this.ctx.worldConnection(s.lane));
  }

  /**
   * Starts the lane and waits until it reaches its first point before the next lane starts: the
   * gate gives a statement from a free connection to the lane that runs, so only one may run.
   */
  *launch(s: LaneState, plan: LaunchPlan): Task<boolean> {
    if (plan.faultAt >= 0) throw noFaults();
    if (plan.parkAtStart) return false;
    this.start(s);
    this.kept.set(s.lane, yield* wait(this.report(s)));
    return true;
  }

  *next(s: LaneState): Task<LaneReport> {
    const kept = this.kept.get(s.lane);
    this.kept.delete(s.lane);
    return kept ?? (yield* wait(this.report(s)));
  }

  override *grant(s: LaneState, kind: GrantKind, budget?: number): Task<LaneReport | undefined> {
    if (kind === 'fault') throw noFaults();
    return yield* super.grant(s, kind, budget);
  }

  /** Every blocked lane whose statement a grant woke runs on to its next point, alone. */
  protected *settleWoken(lanes: readonly LaneState[]): Task<void> {
    for (const s of lanes) {
      if (s.status !== 'blocked' || this.kept.has(s.lane)) continue;
      if ((yield* wait(this.settle(s))) === 'blocked') continue;
      this.ctx.gate.running = s.lane;
      this.kept.set(s.lane, yield* wait(this.report(s)));
    }
  }

  /** Ends the lane here: its request abandoned, its backends ended (rolled back, locks gone). */
  protected async endHere(s: LaneState): Promise<void> {
    const { gate, watch, callTimeoutMs } = this.ctx;
    this.ctx.requests.get(s.lane)?.abort();
    this.ctx.requests.delete(s.lane);
    const pids = gate.pidsOf(s.lane);
    gate.abandon(s.lane);
    gate.forget(s.lane);
    try {
      for (const pid of pids) await watch.terminate(pid, callTimeoutMs);
    } catch {
      throw new LaneHung(this.step, s.lane, callTimeoutMs, s.event);
    }
  }

  /** Lets the lane's statement go (or, when blocked, waits on it); where the lane stops next. */
  protected async statement(s: LaneState): Promise<LaneReport> {
    if (s.status === 'parked') this.outs.set(s.lane, this.ctx.gate.release(s.lane));
    if ((await this.settle(s)) === 'blocked')
      return { type: 'blocked', timeoutMs: Number.POSITIVE_INFINITY };
    const end = this.outs.get(s.lane)?.end;
    this.outs.delete(s.lane);
    const kept = this.kept.get(s.lane);
    this.kept.delete(s.lane);
    const report = kept ?? (await this.report(s));
    return end ? { ...report, prev: end } : report;
  }

  /**
   * Whether the lane's statement was answered (a deadlock victim's included) or waits on a lock;
   * a hang past the budget.
   */
  private async settle(s: LaneState): Promise<'done' | 'blocked'> {
    const { gate, watch, callTimeoutMs } = this.ctx;
    const out = this.outs.get(s.lane);
    if (!out) return 'done';
    try {
      if ((await watch.settle(out, out.pid, callTimeoutMs)) === 'done') {
        this.order.answered(out.pid);
        return 'done';
      }
    } catch (thrown) {
      if (!(thrown instanceof StatementHung)) throw thrown;
      throw new LaneHung(this.step, s.lane, callTimeoutMs, s.event);
    }
    const graph = await watch.waitsFor(gate.waitingPids());
    this.order.saw(graph);
    const cycle = cycleThrough(out.pid, graph, gate.lanePids());
    if (!cycle) return 'blocked';
    out.deadlock = cycle;
    await watch.cancel(out.pid);
    await out.answered;
    this.order.answered(out.pid);
    return 'done';
  }

  /** Starts the lane's event: a call as the principal stands now, or a world event. */
  protected start(s: LaneState): void {
    const { ctx } = this;
    const e = s.event;
    ctx.gate.running = s.lane;
    if (e.kind === 'call') {
      const principal = ctx.principals[e.client];
      if (!principal)
        throw new RangeError(`step ${this.step + 1}: no principal for client ${e.client}`);
      const abort = new AbortController();
      ctx.requests.set(s.lane, abort);
      void sendCall(ctx, principal, e, abort.signal).then((observed) => {
        if (abort.signal.aborted) return; // a crash abandoned it: the reply is dropped
        ctx.requests.delete(s.lane);
        ctx.gate.post(s.lane, { type: 'reply', observed });
      });
    } else if (e.kind !== 'revoke' && e.kind !== 'restore')
      void ctx.worldConnection(s.lane).then((client) =>
        worldEvent(ctx.world, narrow(client), e).then(
          () => ctx.gate.post(s.lane, { type: 'done' }),
          (error: unknown) => ctx.gate.post(s.lane, { type: 'failed', error }),
        ),
      );
  }

  /** The lane's next report, within the call budget. */
  private async report(s: LaneState): Promise<Reached> {
    const report = await this.ctx.gate.next(s.lane, this.ctx.callTimeoutMs);
    if (!report) throw new LaneHung(this.step, s.lane, this.ctx.callTimeoutMs, s.event);
    switch (report.type) {
      case 'statement': {
        const params = paramText(report.values);
        return {
          type: 'statement',
          sql: report.sql,
          write: report.write,
          ...(params ? { params } : {}),
        };
      }
      case 'failed':
        throw report.error;
      case 'done':
        return { type: 'done' };
      case 'reply':
        return { type: 'reply', observed: report.observed, parked: s.parksAtReply };
    }
  }
}

function noFaults(): ReceiptcheckError {
  return new ReceiptcheckError(
    'E_SERVICE_MODE',
    "an injected statement fault cannot reach a service's statements (the proxy forwards them as sent): service schedules draw none",
  );
}
