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
 * Each run gets a database of its own, copied (`CREATE DATABASE … TEMPLATE`) from a template the
 * plugin's `setup` filled once, and dropped after the run.
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
import type { Fixture } from '../../../model/world.ts';
import { RECORD_DECISIONS, type ScheduledExecution } from '../../../types/execution.ts';
import type { Schedule } from '../../../types/schedule.ts';
import type { GeneratedCase, ModeRunner } from '../../mode-runner.ts';
import { onInterrupt } from '../../runtime/interrupt.ts';
import { scheduleOfCase } from '../../schedule/schedule-of-case.ts';
import { acquirePostgres, type PostgresServer } from '../server.ts';
import { LoggedConnection } from './logged-connection.ts';
import { RunDatabases } from './run-databases.ts';
import { runPgScheduled } from './run-sequence.ts';

/** What scheduled mode on PostgreSQL needs; `OneModeOptions` has it all. */
export interface PgScheduledOptions {
  readonly fixture: Fixture;
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
 * Acquires the server, builds the template with the plugin's `setup`, and returns the runner;
 * `close()` drops the template and lets the server go. Throws `E_POSTGRES` when the server
 * cannot be reached, `E_HANDLER_SETUP` when `setup` throws.
 */
export async function postgresScheduledRunner(
  plugin: PostgresHandlerPlugin,
  options: PgScheduledOptions,
): Promise<PgScheduledRunner> {
  const server = await acquirePostgres(options.databaseUrl);
  let template: string;
  try {
    template = await templateOf(server, plugin, options.fixture);
  } catch (thrown) {
    await server.release();
    throw thrown;
  }
  let databases: RunDatabases;
  try {
    databases = await RunDatabases.open(server, template);
  } catch (thrown) {
    await server.dropDatabase(template);
    await server.release();
    throw thrown;
  }
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      untrack();
      try {
        await databases.close();
        await server.dropDatabase(template);
      } finally {
        await server.release();
      }
    })();
    return closed;
  };
  const untrack = onInterrupt(() => close());
  const env = {
    plugin,
    fixture: options.fixture,
    server,
    databases,
    callTimeoutMs: options.callTimeoutMs,
    grantsMax: options.grantsMax ?? 20_000,
  };
  const executeScheduled = (steps: readonly Step[], schedule: Schedule, record = false) => {
    if (closed) throw new ReceiptcheckError('E_WORKER', 'this scheduled runner is closed');
    return runPgScheduled(env, steps, schedule, record);
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

/** A database filled by the plugin's `setup`, to copy for every run. */
async function templateOf(
  server: PostgresServer,
  plugin: PostgresHandlerPlugin,
  fixture: Fixture,
): Promise<string> {
  const template = await server.createDatabase();
  const conn = await LoggedConnection.open(server.connectionFor(template));
  try {
    await plugin.setup(conn.proxy, fixture);
  } catch (thrown) {
    await conn.close();
    await server.dropDatabase(template);
    throw new ReceiptcheckError(
      'E_HANDLER_SETUP',
      `handler "${plugin.name}" setup failed on PostgreSQL: ${(thrown as Error).message}`,
    );
  }
  await conn.close();
  return template;
}
