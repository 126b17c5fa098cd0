/**
 * What every driver whose lanes run against a PostgreSQL server has in common (a plugin's lanes,
 * `pg-lane-driver.ts`; a service's, `../../service/scheduled/service-lane-driver.ts`): no run-ahead
 * (each statement is a round trip anyway), a crash stops the lane from outside (`end`: its backend
 * ended, its locks gone), a scope change replaces the principals, and a stall ends the run, since
 * PostgreSQL waits on locks for ever and cycles lanes close are broken as they close.
 */
import type { GrantKind } from '../../../types/scheduled-trace.ts';
import { type Task, wait } from '../../runtime/task.ts';
import type { Stall } from '../../schedule/decide.ts';
import type { LaneDriver, LaneReport, LaunchPlan } from '../../schedule/lane-driver.ts';
import type { LaneState } from '../../schedule/lane-state.ts';
import { lockedStall } from './lane-hung.ts';
import { changeScope, type PgStepContext } from './step-context.ts';

/** A driver of lanes on a PostgreSQL server; the engine fills in how a lane starts, runs and ends. */
export abstract class ServerLaneDriver implements LaneDriver {
  readonly runAheadMax = 0;
  readonly crashKills = true;

  constructor(
    protected readonly shared: Pick<PgStepContext, 'principals' | 'operation' | 'callTimeoutMs'>,
    protected readonly step: number,
  ) {}

  abstract open(lanes: readonly LaneState[]): Task<void>;
  abstract launch(s: LaneState, plan: LaunchPlan): Task<boolean>;
  abstract next(s: LaneState): Task<LaneReport>;
  abstract grant(s: LaneState, kind: GrantKind, budget: number): Task<LaneReport | undefined>;
  /** Ends the lane where it is: its backends ended (rolled back, locks gone), its client hears nothing. */
  abstract end(s: LaneState): Promise<void>;

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
