/**
 * The calls that may be dropped (completion and outcome unknown), as a list the search scans
 * for one whose write is needed. A long history can hold thousands, almost all of which can no
 * longer write anything; scanning them all at every dead end made illegal verdicts quadratic.
 *
 * So a call is unlinked as soon as the current state shows it never can: its write could only
 * be a fresh success, which needs a free receipt key (a taken key never frees up along a path)
 * and its row at the expected version (without a re-create in this part, a row never comes
 * back and its version never goes down). It is linked back when the search backtracks above the
 * depth where that was seen. Under `storesRefusals` a call can write a refusal even then, so
 * nothing is unlinked. Calls that can never write (lost requests, invalid arguments) are left
 * out from the start.
 */
import type { Event } from '../../model/events.ts';
import type { HistoryEntry } from '../../model/history.ts';
import { type ModelState, receiptKey } from '../../model/state.ts';
import { invalidField } from '../../model/validate.ts';

/** End of the pool's list. */
export const NO_CALL = -1;

/** The pool: droppable calls by index into `EventList.droppable`, linked in invocation order. */
export interface DroppablePool {
  /** The list head: `next[head]` is the first call. */
  readonly head: number;
  readonly next: Int32Array;
  readonly prev: Int32Array;
  /** Receipt key, automation id, expected version and principal of each call. */
  readonly keys: readonly string[];
  readonly rows: Float64Array;
  readonly versions: Float64Array;
  readonly clients: Int32Array;
  /** Automation ids some entry of this part re-creates: their versions may go back to 1. */
  readonly recreated: ReadonlySet<number>;
  /**
   * Whether the operation writes several rows per call (`otherTargets`): `rows` then holds only
   * each call's first, so every call is taken to interfere (`interference.ts`).
   */
  readonly severalRows: boolean;
  /** Whether dead calls are unlinked at all (false under `storesRefusals`). */
  readonly prunes: boolean;
  /** Unlinked calls, and the path depth at which each was unlinked, as stacks. */
  readonly unlinked: number[];
  readonly depths: number[];
}

/**
 * Builds the pool from the droppable calls (in invocation order) of a part whose other entries
 * carry `requiredEvents`.
 */
export function createDroppablePool(
  droppable: readonly HistoryEntry[],
  requiredEvents: readonly Event[],
  initial: ModelState,
): DroppablePool {
  const head = droppable.length;
  const next = new Int32Array(head + 1).fill(NO_CALL);
  const prev = new Int32Array(head + 1).fill(NO_CALL);
  const keys: string[] = [];
  const rows = new Float64Array(head);
  const versions = new Float64Array(head);
  const clients = new Int32Array(head);
  const recreated = new Set<number>();
  for (let r = 0; r < requiredEvents.length; r++) {
    const event = requiredEvents[r] as Event;
    if (event.kind === 'recreate') recreated.add(event.resourceId);
  }
  let last = head;
  droppable.forEach(({ event }, d) => {
    keys.push('');
    if (event.kind !== 'call' || event.delivery === 'lostRequest') return;
    const spec = initial.operation;
    if (invalidField(event.request, spec)) return;
    const principal = initial.principals[event.client];
    if (!principal) {
      throw new RangeError(
        `no principal for client ${event.client}: use a client index into the fixture's principals`,
      );
    }
    const request = event.request;
    keys[d] = receiptKey(
      principal.workspace,
      principal.user,
      spec.tool,
      request.requestId as string,
    );
    rows[d] = request[spec.targetField] as number;
    // Only set_interval's expected version can go stale; other calls never die of it.
    versions[d] = typeof request.expectedVersion === 'number' ? request.expectedVersion : Infinity;
    clients[d] = event.client;
    next[last] = d;
    prev[d] = last;
    last = d;
  });
  const prunes = !initial.policy.storesRefusals;
  return {
    head,
    next,
    prev,
    keys,
    rows,
    versions,
    clients,
    recreated,
    severalRows: initial.operation.otherTargets !== undefined,
    prunes,
    unlinked: [],
    depths: [],
  };
}

/** Whether call `d` can never write again from `state` on; if so, unlinks it at `depth`. */
export function pruneIfDead(
  pool: DroppablePool,
  d: number,
  state: ModelState,
  depth: number,
): boolean {
  if (!pool.prunes || !isDead(pool, d, state)) return false;
  const before = pool.prev[d] as number;
  const after = pool.next[d] as number;
  pool.next[before] = after;
  if (after !== NO_CALL) pool.prev[after] = before;
  pool.unlinked.push(d);
  pool.depths.push(depth);
  return true;
}

/** Links back every call unlinked deeper than `depth`, newest first. */
export function restoreDeeperThan(pool: DroppablePool, depth: number): void {
  const { unlinked, depths, next, prev } = pool;
  while (depths.length > 0 && (depths[depths.length - 1] as number) > depth) {
    depths.pop();
    const d = unlinked.pop() as number;
    const before = prev[d] as number;
    const after = next[d] as number;
    next[before] = d;
    if (after !== NO_CALL) prev[after] = d;
  }
}

function isDead(pool: DroppablePool, d: number, state: ModelState): boolean {
  if (state.receipts.has(pool.keys[d] as string)) return true;
  const id = pool.rows[d] as number;
  if (pool.recreated.has(id)) return false;
  const row = state.rows.get(id);
  return row === undefined || (row.version as number) > (pool.versions[d] as number);
}
