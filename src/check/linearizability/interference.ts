/**
 * When a droppable call's write must come right before the next operation: the "just in time"
 * rule that keeps lost calls from multiplying the search.
 *
 * Take any linearisation in which a lost call d is followed by an operation x that shares no
 * piece of state with d's write (its row and receipt key) and does not change what d reads (its
 * principal's scope, the store flag, its row's existence and workspace). Then d and x commute:
 * x sees the same state without d, d makes the same write after x, and moving d later never
 * breaks real time (d has no completion, so nothing must follow it). Pushing every lost call
 * later this way gives a linearisation in which each is followed by an operation that
 * interferes with it, or ends the order, or is another lost call placed back to back with it
 * (two lost calls that both must precede one operation; commuting ones in pool order). So right
 * after placing d the search only tries operations that interfere with d, and lost calls.
 * Saying "interferes" too often only costs time; too rarely would be unsound, so anything unknown
 * interferes, and so does every call of an operation whose created rows' ids the model predicts
 * (their ids are one counter), and every call and row event of an operation that writes several
 * rows per call (the pool keeps only each call's first row).
 */
import type { Event } from '../../model/events.ts';
import { type ModelState, receiptKey } from '../../model/state.ts';
import { invalidField } from '../../model/validate.ts';
import type { DroppablePool } from './droppable-pool.ts';

/** Whether `event` may not commute with the write of droppable call `d`. */
export function interferes(
  initial: ModelState,
  event: Event,
  pool: DroppablePool,
  d: number,
): boolean {
  switch (event.kind) {
    case 'call': {
      const spec = initial.operation;
      if (event.delivery === 'lostRequest' || invalidField(event.request, spec)) return false;
      if (event.request[spec.targetField] === pool.rows[d]) return true;
      // Several rows per call: any call may share one of them with d (sound, if slower).
      if (pool.severalRows) return true;
      // Predicted ids share one counter: any call that may create a row reads what d wrote.
      if (spec.created?.ids === 'rowid') return true;
      const principal = initial.principals[event.client];
      if (!principal) return true;
      const key = receiptKey(
        principal.workspace,
        principal.user,
        spec.tool,
        event.request.requestId as string,
      );
      return key === pool.keys[d];
    }
    case 'revoke':
    case 'restore':
      return event.client === pool.clients[d];
    case 'move':
    case 'delete':
    case 'recreate':
      return pool.severalRows || event.resourceId === pool.rows[d];
    default:
      return true; // store events, and any kind this file does not know
  }
}

/** Whether two droppable calls of the pool may not commute: same row or same receipt key. */
export function droppablesInterfere(pool: DroppablePool, a: number, b: number): boolean {
  return pool.severalRows || pool.rows[a] === pool.rows[b] || pool.keys[a] === pool.keys[b];
}
