/**
 * One operation of a concurrent run, both ways across the pool: the task that carries it out on
 * a worker, and the history entry made from the worker's reply. Shared by concurrent mode and
 * soak runs, so both record histories the same way:
 *
 * - a delivered call: its interval and outcome;
 * - a lost response: the handler ran, but the client never heard back, so only the invocation is
 *   known (the checker may place the call anywhere later, or nowhere). The real outcome is kept
 *   apart, for the invariants, which are about what the database holds;
 * - a lost request: never reaches a worker; `notSent` at one instant, stamped here;
 * - a world event or scope change: the interval in which it took effect, on its worker.
 */
import { ReceiptcheckError } from '../../../errors.ts';
import { type Event, unsentOutcome } from '../../../model/events.ts';
import type { HistoryEntry } from '../../../model/history.ts';
import type { Observed } from '../../../model/outcome.ts';
import type { Fixture } from '../../../model/world.ts';
import type { GateRef, ScopeTableRef, WorkerTask } from './protocol.ts';
import { sharedClockMs } from './shared-clock.ts';
import type { PoolReply } from './worker-pool.ts';

/** Where operations run: the plugin, the database, the shared scopes, the per-call limit. */
export interface OperationTarget {
  readonly handlerPath: string;
  readonly fixture: Fixture;
  readonly dbPath: string;
  readonly scopes: ScopeTableRef;
  readonly callTimeoutMs: number;
  /** Concurrent mode's run number (see `run-connection.ts`); absent for soak traffic. */
  readonly run?: number;
}

/** The task for `event`, or undefined for a lost request (it never reaches a worker). */
export function operationTask(
  target: OperationTarget,
  event: Event,
  gate?: GateRef,
): WorkerTask | undefined {
  const base = { limitMs: target.callTimeoutMs, ...(gate ? { gate } : {}) };
  const { handlerPath, dbPath, scopes } = target;
  const run = target.run === undefined ? {} : { run: target.run };
  switch (event.kind) {
    case 'call': {
      if (unsentOutcome(event)) return undefined;
      const principal = target.fixture.principals[event.client];
      if (!principal) throw new RangeError(`no principal for client ${event.client}`);
      return { ...base, ...run, type: 'call', handlerPath, dbPath, scopes, principal, event };
    }
    case 'revoke':
    case 'restore':
      return {
        ...base,
        type: 'scope',
        scopes,
        client: event.client,
        granted: event.kind === 'restore',
      };
    default:
      return { ...base, ...run, type: 'world', handlerPath, dbPath, event };
  }
}

/** A history entry (without its id) and, for a call, the outcome it really had. */
export interface RecordedOperation {
  readonly entry: Omit<HistoryEntry, 'id'>;
  readonly observed?: Observed;
  /** When a lost response's call really returned: the harness knows, its client does not. */
  readonly returnedAt?: number;
}

/**
 * Records `event` from its reply (undefined for a lost request); `client` is who issued it, in
 * the history's sense (a lane or a soak client; -1 for the harness). The reply must be a success.
 */
export function recordOperation(
  event: Event,
  reply: PoolReply | undefined,
  client: number,
): RecordedOperation {
  if (event.kind !== 'call') {
    if (reply?.type !== 'applied')
      throw new Error(`unexpected reply ${reply?.type} to a world event`);
    return { entry: { client, event, invokedAt: reply.invokedAt, completedAt: reply.completedAt } };
  }
  const unsent = unsentOutcome(event);
  if (unsent) {
    // Stamped by the worker among plain steps, else at its group's phase end (`run-plan.ts`).
    const now = reply?.type === 'stamped' ? reply.at : sharedClockMs();
    const observed: Observed = unsent;
    return { entry: { client, event, invokedAt: now, completedAt: now, observed }, observed };
  }
  if (reply?.type !== 'called') throw new Error(`unexpected reply ${reply?.type} to a call`);
  const { invokedAt, completedAt, observed } = reply;
  if (event.delivery === 'lostResponse')
    return { entry: { client, event, invokedAt }, observed, returnedAt: completedAt };
  return { entry: { client, event, invokedAt, completedAt, observed }, observed };
}

/** Whether a reply means the operation did not complete (stopped at the deadline, or failed). */
export function isProblem(reply: PoolReply | undefined): boolean {
  return reply?.type === 'stopped' || reply?.type === 'failed';
}

/** The error for a problem reply; `where` names the operation (`step 3 (lane 2), …`). */
export function operationError(
  where: string,
  handlerName: string,
  reply: PoolReply,
): ReceiptcheckError {
  if (reply.type === 'stopped')
    return new ReceiptcheckError(
      'E_CALL_TIMEOUT',
      `${where}: handler "${handlerName}" did not return within ${reply.afterMs} ms, so its worker was stopped; a call must finish within callTimeoutMs (--call-timeout-ms), raise it if the handler is only slow`,
    );
  if (reply.type === 'failed') {
    // A worker that died names no handler: say whose code ran there.
    const whose = reply.error.message.includes('handler "') ? '' : `handler "${handlerName}": `;
    return new ReceiptcheckError(reply.error.code, `${where}: ${whose}${reply.error.message}`);
  }
  return new ReceiptcheckError('E_WORKER', `${where}: unexpected reply ${reply.type}`);
}

/** A one-line description of an event for error messages (reports have richer wording). */
export function summariseEvent(event: Event): string {
  if (event.kind !== 'call') return `world event ${JSON.stringify(event)}`;
  const { requestId, ...args } = event.request;
  const fields = Object.entries(args).map(([k, v]) => `${k} ${String(v)}`);
  return `call by client ${event.client} (request ${JSON.stringify(requestId)}, ${fields.join(', ')})`;
}

/** The same entry with its times measured from `origin` (a `sharedClockMs()` reading). */
export function rebase<T extends Omit<HistoryEntry, 'id'>>(entry: T, origin: number): T {
  return {
    ...entry,
    invokedAt: entry.invokedAt - origin,
    ...(entry.completedAt !== undefined ? { completedAt: entry.completedAt - origin } : {}),
  };
}
