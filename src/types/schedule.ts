/**
 * The statement schedule of scheduled mode, as plain data: for each step of a sequence, which
 * lane runs at each decision point, and where (if anywhere) a lane crashes or a write statement
 * fails. A schedule travels with its steps (one entry per step), so fast-check shrinks both
 * together and a saved counterexample replays the same interleaving.
 */
import type { Step } from '../model/events.ts';

/** A point in one lane's run: its `at`-th yield point, or its `at`-th write statement. */
export interface LanePoint {
  /** The lane (index in the concurrent group; 0 for a plain step). Taken modulo the lane count. */
  readonly lane: number;
  readonly at: number;
}

/**
 * What the scheduler does in one step.
 *
 * `choices[k]` settles the k-th decision point where more than one lane could run: it picks the
 * `choices[k]`-th runnable lane counting from the lane that ran last (0 = keep running it, so an
 * all-zero or empty list runs each lane to completion in lane order). Missing entries are 0, which
 * is why the list shrinks towards fewer context switches.
 */
export interface StepSchedule {
  readonly choices: readonly number[];
  /**
   * Kill `lane` at its `at`-th yield point: 0 is before the call starts, then one per statement,
   * and the last is between the handler's return and the reply. No crash when `at` is past the end.
   */
  readonly crash?: LanePoint;
  /** Make `lane`'s `at`-th write statement fail as a failing store does; none when there is no such write. */
  readonly fault?: LanePoint;
}

/** A schedule: entry `i` drives step `i`; missing entries run to completion with no crash or fault. */
export type Schedule = readonly StepSchedule[];

/** A generated case for scheduled mode: the steps and the schedule that drives them. */
export interface ScheduledCase {
  readonly steps: Step[];
  readonly schedule: StepSchedule[];
}

/** The schedule entry that runs a step to completion, with no crash and no fault. */
export const RUN_TO_COMPLETION: StepSchedule = { choices: [] };

/** The entry for step `index`, or run-to-completion when the schedule is shorter. */
export function stepScheduleAt(schedule: Schedule, index: number): StepSchedule {
  return schedule[index] ?? RUN_TO_COMPLETION;
}

/**
 * Checks an untrusted value (e.g. read back from a case file) is a schedule; returns it typed,
 * or a message naming the first bad entry.
 */
export function parseSchedule(value: unknown): { schedule: StepSchedule[] } | { error: string } {
  if (!Array.isArray(value)) return { error: 'the schedule must be an array of step entries' };
  const schedule: StepSchedule[] = [];
  for (const [i, raw] of value.entries()) {
    const where = `schedule entry ${i + 1}`;
    if (typeof raw !== 'object' || raw === null) return { error: `${where} must be an object` };
    const e = raw as Record<string, unknown>;
    if (!Array.isArray(e.choices) || !e.choices.every(isNat))
      return { error: `${where}: "choices" must be a list of non-negative integers` };
    const entry: { choices: number[]; crash?: LanePoint; fault?: LanePoint } = {
      choices: e.choices as number[],
    };
    for (const key of ['crash', 'fault'] as const) {
      if (e[key] === undefined) continue;
      const p = e[key] as Record<string, unknown> | null;
      if (typeof p !== 'object' || p === null || !isNat(p.lane) || !isNat(p.at))
        return { error: `${where}: "${key}" must be {lane, at} with non-negative integers` };
      entry[key] = { lane: p.lane as number, at: p.at as number };
    }
    schedule.push(entry);
  }
  return { schedule };
}

function isNat(v: unknown): boolean {
  return Number.isSafeInteger(v) && (v as number) >= 0;
}
