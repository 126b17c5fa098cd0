/**
 * From lanes picked to the schedule that picks them, and the preemptions a pick costs. The
 * prover branches by lane ("run lane 2 here"); a schedule says it as a choice counted round the
 * candidates from the lane that ran last (`schedule/choose-lane.ts`), which is what a case file
 * stores, so a path found here replays with `receiptcheck replay`. Pure.
 */
import type { Schedule, StepSchedule } from '../../types/schedule.ts';
import type { DecisionRecord } from '../../types/scheduled-trace.ts';

/**
 * The choice that makes `chooseLane` pick `lane` among `candidates` (lane order) after `last`;
 * when `last` slept, the scheduler counts the choice from the lane after it (`decide.ts`).
 */
export function choiceFor(
  candidates: readonly number[],
  last: number | undefined,
  lane: number,
  lastSlept = false,
): number {
  const at = candidates.indexOf(lane);
  if (at < 0) throw new RangeError(`lane ${lane} is not a candidate`);
  let start = 0;
  if (last !== undefined)
    while (start < candidates.length && (candidates[start] as number) < last) start++;
  if (start === candidates.length) start = 0;
  const shift = lastSlept ? 1 : 0;
  return (at - start - shift + 2 * candidates.length) % candidates.length;
}

/**
 * Whether granting `lane` at `d` is a preemption: a switch away from the lane that ran last while
 * it could go on (CHESS's count). A step's first grant, or a switch from a lane that finished,
 * waits on a lock that nothing released, or slept since its grant, is free.
 */
export function preempts(d: DecisionRecord, lane: number): boolean {
  return (
    d.last !== undefined &&
    lane !== d.last &&
    d.lastSlept !== true &&
    d.candidates.some((c) => c.lane === d.last)
  );
}

/**
 * The schedule that makes a run take `lanes[j]` at the `j`-th choosing decision of `decisions`
 * (the records of a run that reached at least that far) and runs on with no switch after them;
 * `plan`'s crashes and faults kept, step by step.
 */
export function scheduleOf(
  decisions: readonly DecisionRecord[],
  lanes: readonly number[],
  plan: Schedule,
): Schedule {
  const choices: number[][] = [];
  let j = 0;
  for (const d of decisions) {
    if (j >= lanes.length) break;
    if (!d.chose) continue;
    const perStep = choices[d.step] ?? [];
    choices[d.step] = perStep;
    perStep.push(
      choiceFor(
        d.candidates.map((c) => c.lane),
        d.last,
        lanes[j] as number,
        d.lastSlept,
      ),
    );
    j++;
  }
  if (j < lanes.length) throw new RangeError('the path is longer than the run it extends');
  const length = Math.max(plan.length, choices.length);
  return Array.from({ length }, (_, step): StepSchedule => {
    const { crash, fault } = plan[step] ?? {};
    return {
      choices: choices[step] ?? [],
      ...(crash ? { crash } : {}),
      ...(fault ? { fault } : {}),
    };
  });
}
