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
 */
export function buildEventList(entries: readonly HistoryEntry[]): EventList {
  const n = entries.length;
  const invoked = new Float64Array(n);
  const completed = new Float64Array(n);
  const ids = new Float64Array(n);
  const keep: number[] = [];
  const drop: number[] = [];
  for (let i = 0; i < n; i++) {
    const e = entries[i] as HistoryEntry;
    const done = e.completedAt;
    invoked[i] = e.invokedAt;
    completed[i] = done === undefined ? Number.POSITIVE_INFINITY : done;
    ids[i] = e.id;
    (done === undefined && isDroppable(e) ? drop : keep).push(i);
  }
  const byInvocation = (a: number, b: number) =>
    (invoked[a] as number) - (invoked[b] as number) || (ids[a] as number) - (ids[b] as number);
  keep.sort(byInvocation);
  drop.sort(byInvocation);

  const count = keep.length;
  const time = new Float64Array(2 * count + 1);
  time[HEAD] = Number.NEGATIVE_INFINITY;
  keep.forEach((i, r) => {
    time[2 * r + 1] = invoked[i] as number;
    time[2 * r + 2] = completed[i] as number;
  });
  const returns = Array.from({ length: count }, (_, r) => r);
  returns.sort((a, b) => (time[2 * a + 2] as number) - (time[2 * b + 2] as number) || a - b);

  const next = new Int32Array(2 * count + 1).fill(NIL);
  const prev = new Int32Array(2 * count + 1).fill(NIL);
  let last = HEAD;
  const append = (node: number) => {
    next[last] = node;
    prev[node] = last;
    last = node;
  };
  // Merge calls (already in time order) with returns; a call goes first at equal times.
  let j = 0;
  for (let r = 0; r < count; r++) {
    while (
      j < count &&
      (time[2 * (returns[j] as number) + 2] as number) < (time[2 * r + 1] as number)
    ) {
      append(2 * (returns[j++] as number) + 2);
    }
    append(2 * r + 1);
  }
  while (j < count) append(2 * (returns[j++] as number) + 2);

  const required = keep.map((i) => entries[i] as HistoryEntry);
  const droppable = drop.map((i) => entries[i] as HistoryEntry);
  return {
    required,
    events: required.map((e) => e.event),
    expected: required.map((e) => (e.event.kind === 'call' ? e.observed : undefined)),
    droppable,
    droppableInvokedAt: Float64Array.from(drop, (i) => invoked[i] as number),
    next,
    prev,
    time,
  };
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
