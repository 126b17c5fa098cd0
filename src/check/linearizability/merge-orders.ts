/**
 * Merging the witness orders of independent parts into one order for the whole history.
 *
 * Repeatedly take, among the parts' next entries, the one invoked earliest (ties by id). That is
 * always allowed: if some entry f left in part Q had completed before the taken entry d was
 * invoked, then f completed before Q's next entry h was invoked too (d was invoked no later than
 * h), yet Q's own order puts f after h — impossible for an order that respects real time. So the
 * merge respects real time, and since parts touch disjoint state it keeps every outcome.
 */

/** One part's witness: entry ids in order, and their invocation times in the same order. */
export interface PartOrder {
  readonly order: readonly number[];
  readonly invokedAt: Float64Array;
}

/** One order over all parts. */
export function mergeOrders(parts: readonly PartOrder[]): number[] {
  const orders = parts.map((p) => p.order);
  const times = parts.map((p) => p.invokedAt);
  const heads = new Int32Array(orders.length);
  // A binary min-heap of part indices, keyed by (invocation time, id) of their next entry.
  const heap: number[] = [];
  const before = (a: number, b: number): boolean => {
    const ta = (times[a] as Float64Array)[heads[a] as number] as number;
    const tb = (times[b] as Float64Array)[heads[b] as number] as number;
    if (ta !== tb) return ta < tb;
    return (
      ((orders[a] as readonly number[])[heads[a] as number] as number) <
      ((orders[b] as readonly number[])[heads[b] as number] as number)
    );
  };
  const siftDown = (i: number) => {
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && before(heap[left] as number, heap[least] as number)) least = left;
      if (right < heap.length && before(heap[right] as number, heap[least] as number))
        least = right;
      if (least === i) return;
      [heap[i], heap[least]] = [heap[least] as number, heap[i] as number];
      i = least;
    }
  };
  orders.forEach((order, part) => {
    if (order.length > 0) heap.push(part);
  });
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(i);

  const merged: number[] = [];
  while (heap.length > 0) {
    const part = heap[0] as number;
    const order = orders[part] as readonly number[];
    const at = heads[part] as number;
    merged.push(order[at] as number);
    heads[part] = at + 1;
    if (at + 1 >= order.length) {
      const last = heap.pop() as number;
      if (heap.length === 0) break;
      heap[0] = last;
    }
    siftDown(0);
  }
  return merged;
}
