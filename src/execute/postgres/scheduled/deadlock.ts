/**
 * Deadlocks and injected faults as PostgreSQL raises them, decided by the scheduler.
 *
 * PostgreSQL's own deadlock detector runs on a timer (`deadlock_timeout`) in each waiting
 * backend, so which of two lanes it aborts depends on when each began to wait: timing, which a
 * deterministic schedule cannot have. So the lanes' timers are pushed out to an hour and the
 * scheduler finds the cycle itself, the moment a lane that closes one is seen waiting (the
 * wait-for graph from `pg_blocking_pids`): that lane is the victim, as it usually is in
 * PostgreSQL. Its statement is cancelled on the server, which aborts it and its transaction
 * exactly as the detector would, and the plugin gets PostgreSQL's deadlock error (SQLSTATE 40P01).
 */
import pg from 'pg';
import { INJECTED_FAULT_MESSAGE } from '../../../types/scheduled-trace.ts';

/** SQLSTATE of a deadlock. */
export const DEADLOCK_CODE = '40P01';

/** SQLSTATE of an injected statement fault: integrity_constraint_violation, what a failing store raises. */
export const FAULT_CODE = '23000';

/**
 * The statement sent instead of a faulted write: it raises the fault on the server, so the
 * transaction is aborted as a failing write's is.
 */
export const FAULT_SQL = `DO $$ BEGIN RAISE EXCEPTION '${INJECTED_FAULT_MESSAGE}' USING ERRCODE = '${FAULT_CODE}'; END $$`;

/**
 * The lanes in a wait-for cycle through `closer`, in order from it, or undefined when there is
 * none. `waitsFor` maps a waiting backend to the backends it waits on; `lanes` are the lanes'
 * backends (only they can hold what a lane waits for while the step runs).
 */
export function cycleThrough(
  closer: number,
  waitsFor: ReadonlyMap<number, readonly number[]>,
  lanes: ReadonlySet<number>,
): number[] | undefined {
  const path: number[] = [];
  const seen = new Set<number>();
  const visit = (pid: number): boolean => {
    if (pid === closer && path.length > 0) return true;
    if (seen.has(pid)) return false;
    seen.add(pid);
    path.push(pid);
    for (const next of [...(waitsFor.get(pid) ?? [])].sort((a, b) => a - b))
      if (lanes.has(next) && visit(next)) return true;
    path.pop();
    return false;
  };
  return visit(closer) ? path : undefined;
}

/** SQLSTATE of a statement cancelled (`pg_cancel_backend`): how the scheduler breaks a cycle. */
export const QUERY_CANCELED = '57014';

/** What PostgreSQL's deadlock error says, for the statement cancelled to break `cycle` (backend pids). */
export function deadlockFields(cycle: readonly number[]): {
  readonly code: string;
  readonly message: string;
  readonly detail: string;
} {
  return {
    code: DEADLOCK_CODE,
    message: 'deadlock detected',
    detail: `Process ${cycle.join(' waits for a lock held by process ')} waits for a lock held by process ${cycle[0]} (receiptcheck's scheduler found the cycle).`,
  };
}

/** PostgreSQL's deadlock error, for the statement the scheduler cancelled to break `cycle`. */
export function deadlockError(cycle: readonly number[]): pg.DatabaseError {
  const fields = deadlockFields(cycle);
  const error = new pg.DatabaseError(fields.message, 0, 'error');
  error.code = fields.code;
  error.severity = 'ERROR';
  error.detail = fields.detail;
  return error;
}
