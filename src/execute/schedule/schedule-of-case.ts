/**
 * Reads the schedule back out of a case file's extra fields (a saved counterexample's
 * `detail.schedule`, or a `schedule` written by hand), so a scheduled case replays exactly. Pure.
 */

import { ReceiptcheckError } from '../../errors.ts';
import { parseSchedule, type StepSchedule } from '../../types/schedule.ts';

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
