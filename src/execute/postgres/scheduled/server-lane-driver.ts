/**
 * What every driver whose lanes run against a PostgreSQL server has in common (a plugin's lanes,
 * `pg-lane-driver.ts`; a service's, `../../service/scheduled/service-lane-driver.ts`): no run-ahead
 * (each statement is a round trip anyway), a crash stops the lane from outside (`end`: its backend
 * ended, its locks gone), a scope change replaces the principals, and a stall ends the run, since
 * PostgreSQL waits on locks for ever and cycles lanes close are broken as they close. And the
 * step's `ServerOrder` is told before and after every grant and when a lane ends, here, so that no
 * engine can grant or end a lane unseen by it.
 */
import type { GrantKind } from '../../../types/scheduled-trace.ts';
import { type Task, wait } from '../../runtime/task.ts';
import type { Stall } from '../../schedule/decide.ts';
import type { LaneDriver, LaneReport, LaunchPlan } from '../../schedule/lane-driver.ts';
import type { LaneState } from '../../schedule/lane-state.ts';
import { lockedStall } from './lane-hung.ts';
import type { ServerOrder } from './server-order.ts';
import { changeScope, type PgStepContext } from './step-context.ts';

/** A driver of lanes on a PostgreSQL server; the engine fills in how a lane starts, runs and ends. */
export abstract class ServerLaneDriver implements LaneDriver {
  readonly runAheadMax = 0;
  readonly crashKills = true;

  constructor(
    protected readonly shared: Pick<PgStepContext, 'principals' | 'operation' | 'callTimeoutMs'>,
    protected readonly step: number,
  ) {}

  /** Whether the server chose the order of this step's lanes (`server-order.ts`). */
  protected abstract readonly order: ServerOrder;

  abstract open(lanes: readonly LaneState[]): Task<void>;
  abstract launch(s: LaneState, plan: LaunchPlan): Task<boolean>;
  abstract next(s: LaneState): Task<LaneReport>;
  /** Starts the lane's event; it runs on to its first point, which `next` reports. */
  protected abstract start(s: LaneState): void;
  /** Lets the lane's statement go (or, when blocked, waits on it); where the lane stops next. */
  protected abstract statement(s: LaneState, kind: GrantKind): Promise<LaneReport>;
  /** Lets every blocked lane that a grant's lock release woke run on, or wait again. */
  protected abstract settleWoken(lanes: readonly LaneState[]): Task<void>;
  /** Ends the lane where it is: its backends ended (rolled back, locks gone), its client hears nothing. */
  protected abstract endHere(s: LaneState): Promise<void>;

  *grant(s: LaneState, kind: GrantKind, _budget?: number): Task<LaneReport | undefined> {
    yield* wait(this.order.beforeGrant());
    if (s.point === 'start') {
      this.start(s);
      return yield* this.next(s);
    }
    if (s.point === 'reply') return undefined;
    return yield* wait(this.statement(s, kind));
  }

  *afterGrant(lanes: readonly LaneState[]): Task<void> {
    yield* this.settleWoken(lanes);
    this.order.afterGrant();
  }

  /** Ends the lane where it is; what it held goes, to the server's choice of waiter. */
  async end(s: LaneState): Promise<void> {
    await this.order.ending(s.lane);
    await this.endHere(s);
  }

  *kill(s: LaneState): Task<void> {
    yield* wait(this.end(s));
  }

  applyScope(client: number, granted: boolean): void {
    changeScope(this.shared, client, granted);
  }

  /** What is left waits on locks no running lane holds, which nothing will release: a hang. */
  stall(_d: Stall, _jumpMs: number, live: readonly LaneState[]): { sql: string; ends: Error } {
    return lockedStall(this.step, live, this.shared.callTimeoutMs);
  }
}
