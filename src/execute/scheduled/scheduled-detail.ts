/**
 * What a scheduled run leaves in `ExecutedRun.detail`, and so in a saved counterexample's
 * `extra.detail`: the schedule that drove it (enough to replay it exactly), the trace hash that
 * proves a replay took the same path, the interleaving as lanes, and the serial order the check
 * rests on. Also reads a schedule back out of a case file's extra fields. Pure.
 */

import { ReceiptcheckError } from '../../errors.ts';
import { parseSchedule, type StepSchedule } from '../../generate/schedule.ts';
import type { TraceEntry } from '../../types/scheduled-trace.ts';

/** The detail of one scheduled run. */
export interface ScheduledDetail {
  readonly mode: 'scheduled';
  /** One entry per step; replaying the steps with it repeats the run grant for grant. */
  readonly schedule: readonly StepSchedule[];
  /** `traceHash(entries)`: equal hashes, equal interleavings. */
  readonly traceHash: string;
  /** `renderLanes(entries)`: the interleaving, one column per lane. */
  readonly lanes: string;
  readonly entries: readonly TraceEntry[];
  /** The serial order the verdict rests on, as `{step, lane}`. */
  readonly order: readonly { readonly step: number; readonly lane: number }[];
}

/**
 * The schedule stored with a case: `extra.detail.schedule` (a saved counterexample) or
 * `extra.schedule` (written by hand). Undefined when there is none: every step then runs to
 * completion with no crash and no fault. Throws `E_BAD_COUNTEREXAMPLE` when one is malformed.
 */
export function scheduleOfCase(
  extra: Readonly<Record<string, unknown>> | undefined,
): StepSchedule[] | undefined {
  if (!extra) return undefined;
  const detail = extra.detail as { schedule?: unknown } | undefined;
  const raw =
    extra.schedule ?? (typeof detail === 'object' && detail ? detail.schedule : undefined);
  if (raw === undefined) return undefined;
  const parsed = parseSchedule(raw);
  if ('error' in parsed)
    throw new ReceiptcheckError(
      'E_BAD_COUNTEREXAMPLE',
      `the case's schedule is malformed: ${parsed.error}`,
    );
  return parsed.schedule;
}

/** Whether a run's detail is scheduled-mode detail (for reports choosing how to show it). */
export function isScheduledDetail(detail: unknown): detail is ScheduledDetail {
  return (
    typeof detail === 'object' &&
    detail !== null &&
    (detail as { mode?: unknown }).mode === 'scheduled' &&
    typeof (detail as { traceHash?: unknown }).traceHash === 'string'
  );
}
