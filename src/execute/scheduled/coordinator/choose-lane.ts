/**
 * The scheduler's choice function, pure: given the lanes that could run now, the lane that ran
 * last and one drawn choice, which lane runs next. Choice 0 keeps the last lane running when it
 * can, so a schedule of zeros (or an empty one) runs each lane to completion in lane order, and
 * shrinking a choice towards 0 removes a context switch.
 */

/**
 * Picks a lane from `candidates` (lane numbers, any order, not empty): the `choice`-th in
 * rotation starting at `last` (or at the first lane after it when `last` cannot run).
 */
export function chooseLane(
  candidates: readonly number[],
  last: number | undefined,
  choice: number,
): number {
  if (candidates.length === 0) throw new RangeError('chooseLane needs at least one candidate');
  const sorted = [...candidates].sort((a, b) => a - b);
  const from = last === undefined ? 0 : sorted.findIndex((lane) => lane >= last);
  const start = Math.max(0, from);
  return sorted[(start + choice) % sorted.length] as number;
}
