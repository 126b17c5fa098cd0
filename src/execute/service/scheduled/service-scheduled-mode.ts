/**
 * Scheduled mode for a service on PostgreSQL, in any language: the same schedules, trace and
 * judge as PostgreSQL plugins' scheduled mode (`../../postgres/scheduled/scheduled-mode.ts`), so
 * reports, shrinking, saved cases and replays work unchanged. The harness owns the database (a
 * PostgreSQL session: template, run database, resets) and starts the service once, with the
 * address of a wire-protocol proxy (`../pg-proxy/`) in place of the server's: every statement the
 * service sends is a yield point (`statement-gate.ts`), and the same steps and schedule give the
 * same trace.
 *
 * Schedules carry no statement faults here: the proxy forwards a service's statements as sent.
 * PostgreSQL's own deadlock timer is pushed out on the run database (a superuser's setting; on
 * another role it stays, and may pick a victim before the scheduler does), so the scheduler's
 * cycle check decides the victim.
 */
import pg from 'pg';
import { ReceiptcheckError } from '../../../errors.ts';
import { scheduledCaseArbitrary } from '../../../generate/schedule-arbitrary.ts';
import type { PostgresHandlerPlugin } from '../../../handlers/postgres/plugin.ts';
import type { Step } from '../../../model/events.ts';
import { RECORD_DECISIONS } from '../../../types/execution.ts';
import type { Schedule } from '../../../types/schedule.ts';
import { PostgresSession } from '../../postgres/postgres-session.ts';
import type {
  PgScheduledOptions,
  PgScheduledRunner,
} from '../../postgres/scheduled/scheduled-mode.ts';
import { throwIfInterrupted } from '../../runtime/interrupt.ts';
import { scheduleOfCase } from '../../schedule/schedule-of-case.ts';
import type { AnswerRule } from '../answer-mapping.ts';
import { keptTransaction, urlOf } from '../database/pg-service-database.ts';
import { type PgProxy, startPgProxy } from '../pg-proxy/pg-proxy.ts';
import type { ProtocolClient } from '../protocol.ts';
import { runServiceScheduled } from './service-scheduled-run.ts';
import { StatementGate } from './statement-gate.ts';
import { proxiedConfig, upstreamOf } from './upstream.ts';

/** A service on PostgreSQL as scheduled mode needs it. */
export interface PgServiceSpec {
  /** The world on the service's database: setup, world events, snapshot (its `call` is unused). */
  readonly world: PostgresHandlerPlugin;
  /** The description's answer rules, tried before the defaults. */
  readonly answers: readonly AnswerRule[];
  /** Starts the service with `databaseUrl` (the proxy's address) and opens its protocol client. */
  open(databaseUrl: string): Promise<ProtocolClient>;
}

/**
 * What scheduled mode on a service needs, as on PostgreSQL plugins (`RunOptions` has it
 * all); the schedules drawn carry no faults. The runner is theirs too: it draws its own cases.
 */
export type { PgScheduledOptions as PgServiceScheduledOptions } from '../../postgres/scheduled/scheduled-mode.ts';

/**
 * Makes the template and run database (the world's `setup`), starts the proxy and the service,
 * and returns the runner; `close()` stops the service and the proxy and lets the databases go.
 */
export async function pgServiceScheduledRunner(
  spec: PgServiceSpec,
  options: PgScheduledOptions,
): Promise<PgScheduledRunner> {
  const session = await PostgresSession.open(spec.world, options.fixture, options.databaseUrl);
  const gate = new StatementGate();
  let proxy: PgProxy | undefined;
  let client: ProtocolClient | undefined;
  let config: pg.ClientConfig;
  let serviceUrl = '';
  /** Set when the service may not answer another run (a call got no reply, a run hung). */
  let broken = false;
  const stop = async () => {
    await client?.close();
    await proxy?.close();
    await session.release();
  };
  /** The run database's name: where the proxy's clients point. */
  let database = '';
  /** Points the service's URL and the world connections at run database `name`, through the proxy. */
  const pointAt = async (name: string, at: PgProxy) => {
    database = name;
    const harness = await session.harness();
    // A superuser's setting; elsewhere PostgreSQL's timer may pick a deadlock's victim first.
    await harness
      .query(
        `DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET deadlock_timeout = %L', current_database(), '1h'); END $$`,
      )
      .catch(() => {});
    config = proxiedConfig(upstreamOf(session.server.connectionFor(name)), at);
    serviceUrl = urlOf(config);
  };
  /** The run database's name, as the session's last reset left it. */
  const runDatabase = () => {
    const name = session.database?.name;
    if (name === undefined) throw new Error('the service has no run database');
    return name;
  };
  try {
    const upstream = upstreamOf(session.server.connectionFor(runDatabase()));
    proxy = await startPgProxy({
      upstreamHost: upstream.host,
      upstreamPort: upstream.port,
      hooks: gate,
    });
    await pointAt(runDatabase(), proxy);
    client = await spec.open(serviceUrl);
  } catch (thrown) {
    await stop().catch(() => {});
    throw thrown;
  }
  let closed: Promise<void> | undefined;
  const env = {
    world: spec.world,
    answers: spec.answers,
    gate,
    session,
    principals: options.fixture.principals,
    operation: options.spec,
    callTimeoutMs: options.callTimeoutMs,
    grantsMax: options.grantsMax ?? 20_000,
    markBroken() {
      broken = true;
    },
    async connectThroughProxy() {
      const c = new pg.Client(config);
      c.on('error', () => {});
      await c.connect();
      return c;
    },
  };
  const executeScheduled = async (steps: readonly Step[], schedule: Schedule, record = false) => {
    if (closed) throw new ReceiptcheckError('E_WORKER', 'this scheduled runner is closed');
    throwIfInterrupted();
    if (broken) {
      // A service that died or hung is started again, so one broken run does not fail the rest.
      await client?.close();
      client = undefined;
      client = await spec.open(serviceUrl);
      broken = false;
    }
    // A transaction the service left open would hold the rows the reset deletes: it would wait for ever.
    const [left] = gate.inTransaction();
    if (left) throw keptTransaction(spec.world.name, `backend ${left.pid}`, left.sql);
    await session.begin();
    // A reset that had to copy the template moved the run database: the service follows it.
    const now = runDatabase();
    if (now !== database) {
      await pointAt(now, proxy as PgProxy);
      await client?.close();
      client = undefined;
      client = await spec.open(serviceUrl);
    }
    return runServiceScheduled(
      { ...env, client: client as ProtocolClient },
      steps,
      schedule,
      record,
    );
  };
  return {
    caseArbitrary(sequence) {
      return scheduledCaseArbitrary(options.fixture, { ...sequence, ...options.schedule }).map(
        ({ steps, schedule }) => ({
          steps,
          replay: { schedule: schedule.map(({ fault: _, ...entry }) => entry) },
        }),
      );
    },
    execute: (steps, replay) =>
      executeScheduled(steps, scheduleOfCase(replay) ?? [], replay?.[RECORD_DECISIONS] === true),
    executeScheduled,
    close() {
      closed ??= stop();
      return closed;
    },
  };
}
