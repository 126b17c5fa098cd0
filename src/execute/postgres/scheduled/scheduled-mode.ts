/**
 * Scheduled mode on PostgreSQL: the same schedules, trace and execution as SQLite's scheduled
 * mode (`../../sqlite/scheduled/scheduled-mode.ts`), so the judge, reports, shrinking, saved cases and
 * replays work unchanged. Lanes are async tasks on connections of their own (each its own server
 * backend), every query a yield point; the coordinator grants one statement at a time in the
 * order the drawn schedule says, sees a statement that waits on a lock from a side connection and
 * counts its lane as blocked, crashes a lane with `pg_terminate_backend`, and breaks the deadlocks
 * lanes close with PostgreSQL's own error (`gated-step.ts`). The same steps and schedule give the
 * same trace.
 *
 * Every run uses the same run database and the same kept connections (`../postgres-session.ts`),
 * put back as the plugin's `setup` left them before every run but the first: the reset the other
 * modes use, in place; a new copy of the template only when a run changed the schema.
 */
import type fc from 'fast-check';
import { ReceiptcheckError } from '../../../errors.ts';
import {
  type ScheduleOptions,
  scheduledCaseArbitrary,
} from '../../../generate/schedule-arbitrary.ts';
import type { SequenceOptions } from '../../../generate/sequence-arbitrary.ts';
import type { PostgresHandlerPlugin } from '../../../handlers/postgres/plugin.ts';
import type { Step } from '../../../model/events.ts';
import type { OperationSpec } from '../../../model/operation.ts';
import type { Fixture } from '../../../model/world.ts';
import { RECORD_DECISIONS, type ScheduledExecution } from '../../../types/execution.ts';
import type { Schedule } from '../../../types/schedule.ts';
import type { GeneratedCase, ModeRunner } from '../../mode-runner.ts';
import { throwIfInterrupted } from '../../runtime/interrupt.ts';
import { scheduleOfCase } from '../../schedule/schedule-of-case.ts';
import { PostgresSession } from '../postgres-session.ts';
import { runPgScheduled } from './run-sequence.ts';

/** What scheduled mode on PostgreSQL needs; `OneModeOptions` has it all. */
export interface PgScheduledOptions {
  readonly fixture: Fixture;
  /** The operation the run checks, as `prepareRun` resolved it. */
  readonly spec: OperationSpec;
  /** Longest wait for one lane's next point, in ms, before the call counts as hung. */
  readonly callTimeoutMs: number;
  /** An existing server (`--database-url`); default: the environment's, else the embedded one. */
  readonly databaseUrl?: string;
  /** Grants per step before the step is a livelock. Default 20,000. */
  readonly grantsMax?: number;
  /** How schedules are drawn (crash and fault rates, choices per step). */
  readonly schedule?: ScheduleOptions;
}

/** A scheduled PostgreSQL runner: a `ModeRunner` that draws its own cases. */
export interface PgScheduledRunner extends ModeRunner {
  caseArbitrary(options: SequenceOptions): fc.Arbitrary<GeneratedCase>;
  /** Runs `steps` under `schedule` directly (`execute` reads the schedule from `replay`). */
  executeScheduled(steps: readonly Step[], schedule: Schedule): Promise<ScheduledExecution>;
}

/**
 * Acquires the server, makes the template (the plugin's `setup`) and the run database, and returns the runner;
 * `close()` drops both and lets the server go. Throws `E_POSTGRES` when the server
 * cannot be reached, `E_HANDLER_SETUP` when `setup` throws.
 */
export async function postgresScheduledRunner(
  plugin: PostgresHandlerPlugin,
  options: PgScheduledOptions,
): Promise<PgScheduledRunner> {
  const session = await PostgresSession.open(plugin, options.fixture, options.databaseUrl, {
    // Superuser only; elsewhere PostgreSQL's detector (a timer) may pick a victim first (`deadlock.ts`).
    laneSetup: "SET deadlock_timeout = '1h'",
  });
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= session.release();
    return closed;
  };
  const env = {
    plugin,
    fixture: options.fixture,
    spec: options.spec,
    session,
    callTimeoutMs: options.callTimeoutMs,
    grantsMax: options.grantsMax ?? 20_000,
  };
  const executeScheduled = (steps: readonly Step[], schedule: Schedule, record = false) => {
    if (closed) throw new ReceiptcheckError('E_WORKER', 'this scheduled runner is closed');
    return (async () => {
      throwIfInterrupted();
      await session.begin();
      const execution = await runPgScheduled(env, steps, schedule, record);
      session.finish();
      return execution;
    })();
  };
  return {
    caseArbitrary(sequence) {
      return scheduledCaseArbitrary(options.fixture, { ...sequence, ...options.schedule }).map(
        ({ steps, schedule }) => ({ steps, replay: { schedule } }),
      );
    },
    execute: (steps, replay) =>
      executeScheduled(steps, scheduleOfCase(replay) ?? [], replay?.[RECORD_DECISIONS] === true),
    executeScheduled,
    close,
  };
}
