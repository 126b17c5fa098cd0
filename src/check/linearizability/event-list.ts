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
 * Nothing is allocated per entry beyond the list itself: a history already in invocation order
 * (as recorded and as generated) is not sorted again, and return nodes join the calls through a
 * heap of the entries still open instead of a sort of all of them. A million-entry soak sorted
 * three copies of its times before, typed arrays whose 23 MB outside the heap made V8 run an
 * extra full collection for external memory in the middle of the check.
 */
export function buildEventList(entries: readonly HistoryEntry[]): EventList {
  const keep: number[] = [];
  const drop: number[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as HistoryEntry;
    (e.completedAt === undefined && isDroppable(e) ? drop : keep).push(i);
  }
  const byInvocation = (a: number, b: number) => {
    const x = entries[a] as HistoryEntry;
    const y = entries[b] as HistoryEntry;
    return x.invokedAt - y.invokedAt || x.id - y.id;
  };
  if (!inOrder(keep, byInvocation)) keep.sort(byInvocation);
  if (!inOrder(drop, byInvocation)) drop.sort(byInvocation);

  const count = keep.length;
  const time = new Float64Array(2 * count + 1);
  time[HEAD] = Number.NEGATIVE_INFINITY;
  for (let r = 0; r < count; r++) {
    const e = entries[keep[r] as number] as HistoryEntry;
    time[2 * r + 1] = e.invokedAt;
    time[2 * r + 2] = e.completedAt === undefined ? Number.POSITIVE_INFINITY : e.completedAt;
  }

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

  const required = keep.map((i) => entries[i] as HistoryEntry);
  const droppable = drop.map((i) => entries[i] as HistoryEntry);
  const droppableInvokedAt = new Float64Array(droppable.length);
  for (let d = 0; d < droppable.length; d++)
    droppableInvokedAt[d] = (droppable[d] as HistoryEntry).invokedAt;
  return {
    required,
    events: required.map((e) => e.event),
    expected: required.map((e) => (e.event.kind === 'call' ? e.observed : undefined)),
    droppable,
    droppableInvokedAt,
    next,
    prev,
    time,
  };
}

/** Whether `indices` are already sorted by `compare`. */
function inOrder(indices: readonly number[], compare: (a: number, b: number) => number): boolean {
  for (let k = 1; k < indices.length; k++)
    if (compare(indices[k - 1] as number, indices[k] as number) > 0) return false;
  return true;
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
