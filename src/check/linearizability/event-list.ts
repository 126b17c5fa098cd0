/**
 * The Wing–Gong / Lowe "entry/return" list for one part of a history, as flat typed arrays.
 *
 * Entries that must take effect are ranked by invocation time; each gets a call node `2r + 1`
 * and a return node `2r + 2`, linked in time order behind a head node `0`. The search lifts an
 * entry out (both nodes) when it linearises it and puts it back when it backtracks, in O(1):
 * the list always holds exactly the entries still to place, so the candidates for "next" are the
 * call nodes before the first return node. Calls that may be dropped get no nodes; they are kept
 * apart, sorted by invocation time. Per-entry fields are copied into arrays once, because
 * recorded entries come in several object shapes and the hot loop should not care.
 */
import type { Event } from '../../model/events.ts';
import { type HistoryEntry, isDroppable } from '../../model/history.ts';
import type { Observed } from '../../model/outcome.ts';
import { createReturnHeap } from './return-heap.ts';

/** The end of the list. */
export const NIL = -1;

/** The head sentinel. */
export const HEAD = 0;

/** One part of a history, ready for the search. */
export interface EventList {
  /** Entries that must take effect, by rank (invocation time, then id). */
  readonly required: readonly HistoryEntry[];
  /** Their events, by rank. */
  readonly events: readonly Event[];
  /** The outcome each must match, by rank; undefined for world events and unobserved calls. */
  readonly expected: readonly (Observed | undefined)[];
  /** Calls that may be dropped, by invocation time then id. */
  readonly droppable: readonly HistoryEntry[];
  /** Their invocation times, in the same order. */
  readonly droppableInvokedAt: Float64Array;
  /** Successor of each node; mutated by `lift` and `unlift`. */
  readonly next: Int32Array;
  /** Predecessor of each node; mutated by `lift` and `unlift`. */
  readonly prev: Int32Array;
  /** Time of each node: invocation for call nodes, completion (or +Infinity) for return nodes. */
  readonly time: Float64Array;
}

/**
 * Builds the list. At equal times call nodes come first: entries whose intervals touch are
 * concurrent, matching "A precedes B only if A.completedAt < B.invokedAt".
 *
 * One pass over the entries fills the list's arrays when they are already in invocation order
 * (as recorded and as generated), and return nodes join the calls through a heap of the entries
 * still open rather than a sort of all of them: on a million-entry soak each pass is a cache
 * miss per entry, and the sorts copied their times into 23 MB of typed arrays outside the heap,
 * enough to make V8 run an extra full collection for external memory in the middle of the check.
 */
export function buildEventList(entries: readonly HistoryEntry[]): EventList {
  let required: HistoryEntry[] = [];
  let droppable: HistoryEntry[] = [];
  // Sized for every entry, so that the common case fills it in the same pass.
  let time = new Float64Array(2 * entries.length + 1);
  let inOrder = true;
  let lastKept: HistoryEntry | undefined;
  let lastDropped: HistoryEntry | undefined;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as HistoryEntry;
    if (e.completedAt === undefined && isDroppable(e)) {
      if (lastDropped !== undefined && byInvocation(lastDropped, e) > 0) inOrder = false;
      droppable.push(e);
      lastDropped = e;
      continue;
    }
    if (lastKept !== undefined && byInvocation(lastKept, e) > 0) inOrder = false;
    setTimes(time, required.length, e);
    required.push(e);
    lastKept = e;
  }
  const count = required.length;
  if (!inOrder) {
    required = required.sort(byInvocation);
    droppable = droppable.sort(byInvocation);
    for (let r = 0; r < count; r++) setTimes(time, r, required[r] as HistoryEntry);
  }
  time = time.subarray(0, 2 * count + 1);
  time[HEAD] = Number.NEGATIVE_INFINITY;

  const next = new Int32Array(2 * count + 1).fill(NIL);
  const prev = new Int32Array(2 * count + 1).fill(NIL);
  let last = HEAD;
  const append = (node: number) => {
    next[last] = node;
    prev[node] = last;
    last = node;
  };
  // Calls in time order, each preceded by the returns that came strictly before it, in order of
  // (completion, rank): every such return belongs to an earlier rank, so it is already open.
  const open = createReturnHeap(time);
  for (let r = 0; r < count; r++) {
    const invokedAt = time[2 * r + 1] as number;
    while (open.size() > 0 && open.firstTime() < invokedAt) append(2 * open.pop() + 2);
    append(2 * r + 1);
    open.push(r);
  }
  while (open.size() > 0) append(2 * open.pop() + 2);

  const events = new Array<Event>(count);
  const expected = new Array<Observed | undefined>(count);
  for (let r = 0; r < count; r++) {
    const event = (required[r] as HistoryEntry).event;
    events[r] = event;
    expected[r] = event.kind === 'call' ? (required[r] as HistoryEntry).observed : undefined;
  }
  const droppableInvokedAt = new Float64Array(droppable.length);
  for (let d = 0; d < droppable.length; d++)
    droppableInvokedAt[d] = (droppable[d] as HistoryEntry).invokedAt;
  return {
    required,
    events,
    expected,
    droppable,
    droppableInvokedAt,
    next,
    prev,
    time,
  };
}

/** The order of ranks: invocation time, then id. */
function byInvocation(a: HistoryEntry, b: HistoryEntry): number {
  return a.invokedAt - b.invokedAt || a.id - b.id;
}

/** Writes the call and return times of the entry of rank `r`. */
function setTimes(time: Float64Array, r: number, e: HistoryEntry): void {
  time[2 * r + 1] = e.invokedAt;
  time[2 * r + 2] = e.completedAt === undefined ? Number.POSITIVE_INFINITY : e.completedAt;
}

/** Whether a node is a call node (as opposed to a return node or the head). */
export function isCallNode(node: number): boolean {
  return (node & 1) === 1;
}

/** The rank of the entry a call node belongs to. */
export function rankOf(callNode: number): number {
  return (callNode - 1) >> 1;
}

/** Takes an entry's call node and its return node out of the list. */
export function lift(list: EventList, callNode: number): void {
  const { next, prev } = list;
  unlink(next, prev, callNode);
  unlink(next, prev, callNode + 1);
}

/** Puts back what the matching `lift` took out; calls must nest like a stack. */
export function unlift(list: EventList, callNode: number): void {
  const { next, prev } = list;
  relink(next, prev, callNode + 1);
  relink(next, prev, callNode);
}

function unlink(next: Int32Array, prev: Int32Array, node: number): void {
  const before = prev[node] as number;
  const after = next[node] as number;
  next[before] = after;
  if (after !== NIL) prev[after] = before;
}

function relink(next: Int32Array, prev: Int32Array, node: number): void {
  const before = prev[node] as number;
  const after = next[node] as number;
  next[before] = node;
  if (after !== NIL) prev[after] = node;
}
