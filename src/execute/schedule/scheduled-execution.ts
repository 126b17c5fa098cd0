/**
 * A scheduled run's result as data, on any engine: the schedule that drove it, each lane's
 * record, the trace, the final snapshot, and the hang and the decisions when there are any.
 */
import type { Snapshot } from '../../model/world.ts';
import type { ScheduledExecution } from '../../types/execution.ts';
import type { Schedule } from '../../types/schedule.ts';
import type { DecisionRecord, LaneRecord, TraceEntry } from '../../types/scheduled-trace.ts';
import type { Hang } from '../../types/verdict.ts';

/** What a run wrote while its steps ran. */
export interface ScheduledRecord {
  readonly schedule: Schedule;
  readonly records: readonly LaneRecord[];
  readonly entries: readonly TraceEntry[];
  readonly decisions?: readonly DecisionRecord[];
}

/** The execution of a run that wrote `run`, ended with `snapshot` (and `hang`, when it hung). */
export function scheduledExecution(
  run: ScheduledRecord,
  snapshot: Snapshot,
  hang?: Hang,
): ScheduledExecution {
  return {
    mode: 'scheduled',
    schedule: run.schedule,
    lanes: run.records,
    entries: run.entries,
    snapshot,
    ...(hang ? { hang } : {}),
    ...(run.decisions ? { decisions: run.decisions } : {}),
  };
}
