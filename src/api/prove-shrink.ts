/**
 * Shrinks a generated case `prove` found failing: drops one step at a time while the rest still
 * fails under some schedule with no more preemptions, until no single step can go. A dropped
 * step is searched again in full (within the bound), so the case kept fails as shown and its
 * schedule is the fewest-preemption one of the smaller case.
 */
import type { Step } from '../model/events.ts';

/** A failure the search found: its preemptions, and whatever else the caller keeps with it. */
export interface Shrinkable {
  readonly preemptions: number;
}

/** Drops steps from `steps` (failing as `found`) while `search` still finds a failure as cheap. */
export async function shrinkSteps<F extends Shrinkable>(
  steps: readonly Step[],
  found: F,
  search: (steps: readonly Step[]) => Promise<F | undefined>,
): Promise<{ readonly steps: readonly Step[]; readonly found: F }> {
  let current = { steps, found };
  for (let i = 0; i < current.steps.length; ) {
    if (current.steps.length === 1) break;
    const candidate = current.steps.filter((_, j) => j !== i);
    // Only a case that still races is worth keeping: the prover explains schedules.
    const again = candidate.some((s) => s.kind === 'concurrent')
      ? await search(candidate)
      : undefined;
    if (again && again.preemptions <= current.found.preemptions)
      current = { steps: candidate, found: again };
    else i++;
  }
  return current;
}
