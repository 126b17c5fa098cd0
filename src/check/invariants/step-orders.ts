/**
 * The orders receipted effects may have committed in: step order, with the effects of one
 * concurrent step in any order (their real order is unknown). Bounded, since the count grows as
 * a factorial. Pure.
 */
import type { Row } from '../../model/operation.ts';
import type { Observation } from '../../types/trace.ts';

/** Most orders tried for one row's effects; past it the row is not checked, as before. */
export const ORDERS_MAX = 120;

/**
 * Every order of `mine` (sorted by step) that keeps the steps in order and permutes the effects
 * within one step; empty when there are more than `ORDERS_MAX`.
 */
export function stepOrders(mine: readonly Observation[]): Observation[][] {
  let orders: Observation[][] = [[]];
  for (let i = 0; i < mine.length; ) {
    let j = i;
    while (j < mine.length && mine[j]?.step === mine[i]?.step) j++;
    const group = permutations(mine.slice(i, j));
    if (orders.length * group.length > ORDERS_MAX) return [];
    orders = orders.flatMap((head) => group.map((g) => [...head, ...g]));
    i = j;
  }
  return orders;
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((x, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]),
  );
}

/** Whether two rows agree on `fields` (both absent counts as agreeing). */
export function sameFields(
  fields: readonly string[],
  a: Row | undefined,
  b: Row | undefined,
): boolean {
  return a === b || (a !== undefined && b !== undefined && fields.every((f) => a[f] === b[f]));
}
