/**
 * A scheduled run's result as data, on any engine: the schedule that drove it, each lane's
 * record, the trace, the final snapshot, and the hang, the decisions and the server's say in the
 * order when there are any.
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
  /** The server, not the schedule, chose which of two or more waiting lanes went first (PostgreSQL). */
  readonly serverOrdered?: boolean;
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
    ...(run.serverOrdered ? { serverOrdered: true as const } : {}),
  };
}
