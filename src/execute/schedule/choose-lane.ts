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
  // Called at every grant and in every run-ahead look, nearly always with lanes in order already:
  // copied and sorted only when they are not.
  const sorted = inOrder(candidates) ? candidates : [...candidates].sort((a, b) => a - b);
  let start = 0;
  if (last !== undefined) while (start < sorted.length && (sorted[start] as number) < last) start++;
  if (start === sorted.length) start = 0;
  return sorted[(start + choice) % sorted.length] as number;
}

function inOrder(lanes: readonly number[]): boolean {
  for (let i = 1; i < lanes.length; i++)
    if ((lanes[i - 1] as number) > (lanes[i] as number)) return false;
  return true;
}
