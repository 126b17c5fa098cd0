/**
 * Removes the steps of a failing case that do not matter, one at a time, asking an oracle whether
 * what is left still fails, then makes its concurrent groups simpler the same way: the last pass
 * over a counterexample. A concurrent one's own shrinking (fast-check, each candidate on real
 * threads) keeps steps whenever a smaller candidate happens not to race; run with a deterministic
 * oracle (the case in scheduled mode under its schedule, `api/reduce-by-scheduling.ts`), the
 * result depends on the case alone, never on timing.
 *
 * A group is made simpler by splitting it into its members as plain steps in lane order (the
 * same calls without the race), or by leaving one member out (a group of two becomes its other
 * member's plain step). fast-check cannot reach either: it shrinks the move a group was drawn
 * from, and a race move shrinks to another race or to a fresh call, never to two calls. So a bug
 * that needs a call and its retry kept the pair as a group, which reads as if they had to race,
 * while in sequential mode a group runs in lane order and nothing raced at all.
 *
 * A step goes with its schedule entry, so every other step keeps its own interleaving, crash and
 * fault. A split gives each member the crash or fault its lane had, and no switches; a smaller
 * group keeps its switches (the oracle says whether they still matter) and renumbers its crash
 * and fault lanes, dropping the left-out member's. Passes repeat until one changes nothing (so
 * the result is 1-minimal: removing any single step more, or simplifying any group, makes it
 * pass), within a bound on oracle runs. Pure but for the oracle.
 */
import type { Event, Step } from '../model/events.ts';
import {
  type LanePoint,
  RUN_TO_COMPLETION,
  type StepSchedule,
  stepScheduleAt,
} from '../types/schedule.ts';

/** A case to reduce: its steps and the schedule entry of each (missing entries run to completion). */
export interface ReducibleCase {
  readonly steps: readonly Step[];
  readonly schedule: readonly StepSchedule[];
}

/** What a reduction came to. */
export interface Reduced {
  readonly case: ReducibleCase;
  /** Steps removed. */
  readonly removed: number;
  /** Groups split or left with one member fewer. */
  readonly simplified: number;
  /** Oracle runs made. */
  readonly runs: number;
  /** True when the bound on runs stopped it before a pass removed nothing. */
  readonly cut: boolean;
}

/** Default bound on oracle runs. */
export const REDUCE_RUNS_MAX = 100;

/** `c` without step `index` and its schedule entry. */
export function withoutStep(c: ReducibleCase, index: number): ReducibleCase {
  return {
    steps: c.steps.filter((_, i) => i !== index),
    schedule: c.schedule.filter((_, i) => i !== index),
  };
}

/**
 * Removes steps of `c` (which `fails`) while what is left still fails, the last step first (later
 * steps depend on earlier ones more often than the reverse), then simplifies its groups, the last
 * first, and again until nothing changes; at most `runsMax` oracle runs.
 */
export async function reduceSteps(
  c: ReducibleCase,
  fails: (candidate: ReducibleCase) => Promise<boolean>,
  runsMax: number = REDUCE_RUNS_MAX,
): Promise<Reduced> {
  let current = c;
  let runs = 0;
  let removed = 0;
  let simplified = 0;
  const cut = () => ({ case: current, removed, simplified, runs, cut: true });
  for (;;) {
    let progress = false;
    for (let i = current.steps.length - 1; i >= 0; i--) {
      if (current.steps.length <= 1) break;
      if (runs >= runsMax) return cut();
      const candidate = withoutStep(current, i);
      runs++;
      if (await fails(candidate)) {
        current = candidate;
        removed++;
        progress = true;
      }
    }
    for (let i = current.steps.length - 1; i >= 0; i--) {
      for (const candidate of simplerGroups(current, i)) {
        if (runs >= runsMax) return cut();
        runs++;
        if (await fails(candidate)) {
          current = candidate;
          simplified++;
          progress = true;
          break;
        }
      }
    }
    if (!progress) return { case: current, removed, simplified, runs, cut: false };
  }
}

/**
 * The simpler forms of step `index` of `c`, most simplifying first: split, then each member
 * removed (the last first). None when the step is not a concurrent group.
 */
export function simplerGroups(c: ReducibleCase, index: number): ReducibleCase[] {
  const step = c.steps[index];
  if (step === undefined || step.kind !== 'concurrent') return [];
  const entry = stepScheduleAt(c.schedule, index);
  const scheduled = c.schedule.length > 0;
  const splice = (steps: readonly Step[], entries: readonly StepSchedule[]): ReducibleCase => ({
    steps: [...c.steps.slice(0, index), ...steps, ...c.steps.slice(index + 1)],
    schedule: scheduled
      ? [...padded(c.schedule, index), ...entries, ...c.schedule.slice(index + 1)]
      : [],
  });
  const members = step.events;
  const forms = [
    splice(
      members,
      members.map((_, lane) => laneEntry(entry, lane, members.length)),
    ),
  ];
  // A group of one has nothing to leave out: its split is its one simpler form.
  for (let drop = members.length - 1; drop >= 0 && members.length > 1; drop--) {
    const rest = members.filter((_, i) => i !== drop);
    const only = rest[0] as Event;
    forms.push(
      rest.length === 1
        ? splice([only], [laneEntry(entry, drop === 0 ? 1 : 0, members.length)])
        : splice(
            [{ kind: 'concurrent', events: rest }],
            [withoutLane(entry, drop, members.length)],
          ),
    );
  }
  return forms;
}

/** The first `n` entries of `schedule`, run-to-completion where it is shorter. */
function padded(schedule: readonly StepSchedule[], n: number): StepSchedule[] {
  return Array.from({ length: n }, (_, i) => stepScheduleAt(schedule, i));
}

/** A plain step's entry for the member at `lane` of a group of `lanes`: its crash and fault. */
function laneEntry(entry: StepSchedule, lane: number, lanes: number): StepSchedule {
  const crash = onLane(entry.crash, lane, lanes);
  const fault = onLane(entry.fault, lane, lanes);
  if (!crash && !fault) return RUN_TO_COMPLETION;
  return { choices: [], ...(crash ? { crash } : {}), ...(fault ? { fault } : {}) };
}

/** `point` moved to lane 0 when it names `lane` of `lanes` (lanes are taken modulo the count). */
function onLane(point: LanePoint | undefined, lane: number, lanes: number): LanePoint | undefined {
  return point && point.lane % lanes === lane ? { lane: 0, at: point.at } : undefined;
}

/** The group's entry without lane `drop`: later lanes renumbered, the dropped lane's points gone. */
function withoutLane(entry: StepSchedule, drop: number, lanes: number): StepSchedule {
  const renumber = (point: LanePoint | undefined): LanePoint | undefined => {
    if (!point) return undefined;
    const lane = point.lane % lanes;
    if (lane === drop) return undefined;
    return { lane: lane > drop ? lane - 1 : lane, at: point.at };
  };
  const crash = renumber(entry.crash);
  const fault = renumber(entry.fault);
  return { choices: entry.choices, ...(crash ? { crash } : {}), ...(fault ? { fault } : {}) };
}
