/**
 * What every step of a scheduled PostgreSQL run shares: the plugin, the trace being written, the
 * current principals, the limits, the side connection, and the lanes' connections (opened when a
 * step first needs a lane, replaced after a crash). Also how a lane carries out its event.
 */
import type { Connection, HandlerPlugin } from '../../../handlers/plugin.ts';
import type { PgConnection, PostgresHandlerPlugin } from '../../../handlers/postgres/plugin.ts';
import type { CallEvent } from '../../../model/events.ts';
import type { OperationSpec } from '../../../model/operation.ts';
import type { Observed } from '../../../model/outcome.ts';
import { type Principal, withWriteScope } from '../../../model/world.ts';
import type { DecisionRecord, TraceEntry } from '../../../types/scheduled-trace.ts';
import { applyCall } from '../../apply-event.ts';
import type { LaneConnection } from './lane-connection.ts';
import type { LockWatch } from './lock-watch.ts';

/** What every step of one run shares. */
export interface PgStepContext {
  readonly plugin: PostgresHandlerPlugin;
  readonly entries: TraceEntry[];
  /** Current principals; revokes and restores replace them. */
  principals: readonly Principal[];
  readonly operation: OperationSpec;
  readonly callTimeoutMs: number;
  readonly grantsMax: number;
  /** Where gated grants' decisions are recorded, when the run was asked for them (the prover). */
  readonly decisions?: DecisionRecord[];
  readonly watch: LockWatch;
  /** Set once a statement of the run may have taken a session-level lock (`takesSessionLock`). */
  readonly sessionLocks: { taken: boolean };
  /**
   * Set once a lane let go of a lock two or more other lanes waited on: the server, not the
   * schedule, chose which of them went first (`pg-lane-driver.ts`).
   */
  readonly serverOrdered: { seen: boolean };
  /** Lane `i`'s connection, opened on first use. */
  lane(i: number): Promise<LaneConnection>;
  /** Lane `i`'s connection died in a crash: the next step gets a new one. */
  retire(i: number): void;
  /**
   * Lane `i` crashed with no statement on the server: its backend made as a new one would be
   * (rolled back, session reset) and kept, the next step's lane on it; false when that failed
   * (the lane retired, its backend to be ended).
   */
  restart(i: number): Promise<boolean>;
  /** The backends of the lanes' open connections. */
  lanePids(): Promise<ReadonlySet<number>>;
}

/**
 * Calls the handler as `principal` (the shared wrapper: thrown errors and non-outcomes become
 * `unexpected`, escapes are charged to the call).
 */
export function callHandler(
  plugin: PostgresHandlerPlugin,
  db: PgConnection,
  principal: Principal,
  event: CallEvent,
): Promise<Observed> {
  // The wrapper reads only `call`, `name` and `operation`, which a PostgreSQL plugin has too.
  return applyCall(
    plugin as unknown as HandlerPlugin,
    db as unknown as Connection,
    principal,
    event,
  );
}

/** A revoke or restore of `client`'s write scope takes effect for the calls that start from now on. */
export function changeScope(
  ctx: Pick<PgStepContext, 'principals' | 'operation'>,
  client: number,
  granted: boolean,
): void {
  ctx.principals = withWriteScope(ctx.principals, client, granted, ctx.operation.scope);
}
