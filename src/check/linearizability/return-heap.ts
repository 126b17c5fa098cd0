/**
 * The entries still open while the event list (`event-list.ts`) is built in time order: a
 * binary min-heap of ranks keyed by return time, then rank, so that return nodes come out in
 * exactly the order a sort of all of them would give, at the cost of the entries open at once.
 */

/** The heap's operations; `firstTime` and `pop` need a non-empty heap. */
export interface ReturnHeap {
  size(): number;
  /** The earliest return time held. */
  firstTime(): number;
  push(rank: number): void;
  /** Takes out the rank with the earliest return (the lowest rank among equal times). */
  pop(): number;
}

/**
 * An empty heap over `time`, the event list's node times: rank r returns at `time[2r + 2]`
 * (+Infinity for an entry that never returned).
 */
export function createReturnHeap(time: Float64Array): ReturnHeap {
  const heap: number[] = [];
  const returnOf = (r: number) => time[2 * r + 2] as number;
  // ∞ equals ∞ here, so entries that never return stay in rank order, as in a sort.
  const before = (a: number, b: number) => {
    const ta = returnOf(a);
    const tb = returnOf(b);
    return ta < tb || (ta === tb && a < b);
  };
  return {
    size: () => heap.length,
    firstTime: () => returnOf(heap[0] as number),
    push(r: number): void {
      let i = heap.length;
      heap.push(r);
      while (i > 0) {
        const up = (i - 1) >> 1;
        if (!before(r, heap[up] as number)) break;
        heap[i] = heap[up] as number;
        i = up;
      }
      heap[i] = r;
    },
    pop(): number {
      const first = heap[0] as number;
      const moved = heap.pop() as number;
      const n = heap.length;
      if (n === 0) return first;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= n) break;
        const right = left + 1;
        const child =
          right < n && before(heap[right] as number, heap[left] as number) ? right : left;
        if (!before(heap[child] as number, moved)) break;
        heap[i] = heap[child] as number;
        i = child;
      }
      heap[i] = moved;
      return first;
    },
  };
}
