/**
 * What every step of a scheduled run shares (the lanes, the trace being written, the current
 * principals and the limits), and the one place a revoke or restore changes the principals.
 */
import type { OperationSpec } from '../../../../model/operation.ts';
import { type Principal, withWriteScope } from '../../../../model/world.ts';
import type { DecisionRecord, TraceEntry } from '../../../../types/scheduled-trace.ts';
import type { CallWatch } from '../../../runtime/call-watch.ts';
import type { Lanes } from '../lanes.ts';

/** What every step of a run shares. */
export interface StepContext {
  readonly lanes: Lanes;
  readonly dbPath: string;
  /** Current principals; scope lanes replace them. */
  principals: readonly Principal[];
  /** The operation: its scope is what a revoke removes, its noun names rows in the lanes view. */
  readonly operation: OperationSpec;
  readonly entries: TraceEntry[];
  readonly callTimeoutMs: number;
  /** The call budget for plugin code on this thread (plain steps, inline lanes). */
  readonly watch: CallWatch;
  readonly grantsMax: number;
  /** `connection`: a crash closes the lane's connection; `thread`: it terminates the worker. */
  readonly crashMode: 'connection' | 'thread';
  /** Most points one grant lets a worker pass (0: park at every point). */
  readonly runAheadMax: number;
  /** Where gated grants' decisions are recorded, when the run was asked for them. */
  readonly decisions?: DecisionRecord[];
}

/** Writes every current principal's write scope into the table lanes read at their start. */
export function storeScopes(ctx: StepContext): void {
  for (const [i, p] of ctx.principals.entries())
    Atomics.store(ctx.lanes.scopes, i, p.scopes.includes(ctx.operation.scope) ? 1 : 0);
}

/**
 * A revoke or restore takes effect: in the principals the next calls are sent as, and in the
 * table a lane reads when its start is granted.
 */
export function applyScopeChange(ctx: StepContext, client: number, granted: boolean): void {
  ctx.principals = withWriteScope(ctx.principals, client, granted, ctx.operation.scope);
  Atomics.store(ctx.lanes.scopes, client, granted ? 1 : 0);
}
