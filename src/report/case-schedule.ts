/**
 * Checks the schedule a case file carries when it is loaded, so a malformed one is refused in one
 * line naming the entry rather than when the case runs. A hand-written `"schedule"` (read when the
 * case runs in scheduled mode, its own or by `--mode scheduled`) is held to what a person means:
 * one entry per step at most, no unknown field, and a crash or fault names a lane that exists and
 * is a call (lanes count from 0). A saved counterexample's
 * `"detail.schedule"` was drawn by the generator, whose lanes are taken modulo the group's size,
 * so it is only checked for shape. Pure.
 */
import type { Step } from '../model/events.ts';
import { parseSchedule } from '../types/schedule.ts';

const ENTRY_KEYS = new Set(['choices', 'crash', 'fault']);
const POINT_KEYS = new Set(['lane', 'at']);

/** The first problem with the case's schedules, as a message; undefined when there is none. */
export function scheduleProblem(
  raw: Readonly<Record<string, unknown>>,
  steps: readonly Step[],
): string | undefined {
  const detail = raw.detail;
  if (typeof detail === 'object' && detail !== null && 'schedule' in detail) {
    const parsed = parseSchedule((detail as { schedule: unknown }).schedule);
    if ('error' in parsed) return `has a malformed "detail.schedule": ${parsed.error}`;
  }
  if (raw.schedule === undefined) return undefined;
  const parsed = parseSchedule(raw.schedule);
  if ('error' in parsed) return `has a malformed "schedule": ${parsed.error}`;
  if (parsed.schedule.length > steps.length)
    return `has ${parsed.schedule.length} "schedule" entries for ${steps.length} step(s): one entry per step, in step order`;
  for (const [i, entry] of (raw.schedule as Record<string, unknown>[]).entries()) {
    const where = `"schedule" entry ${i + 1}`;
    const extra = Object.keys(entry).find((k) => !ENTRY_KEYS.has(k));
    if (extra !== undefined)
      return `${where} has unknown field ${JSON.stringify(extra)} (allowed: choices, crash, fault)`;
    const step = steps[i] as Step;
    const events = step.kind === 'concurrent' ? step.events : [step];
    for (const key of ['crash', 'fault'] as const) {
      const point = entry[key] as Record<string, unknown> | undefined;
      if (point === undefined) continue;
      const unknown = Object.keys(point).find((k) => !POINT_KEYS.has(k));
      if (unknown !== undefined)
        return `${where}: "${key}" has unknown field ${JSON.stringify(unknown)} (allowed: lane, at)`;
      const lane = point.lane as number;
      if (lane >= events.length)
        return `${where}: "${key}" names lane ${lane}, but step ${i + 1} has ${events.length === 1 ? 'only lane 0' : `lanes 0 to ${events.length - 1}`} (lanes count from 0)`;
      if (events[lane]?.kind !== 'call')
        return `${where}: "${key}" names lane ${lane} of step ${i + 1}, which is a ${events[lane]?.kind} event, not a call`;
    }
  }
  return undefined;
}
