/**
 * Scheduled execution of one sequence on PostgreSQL, on a database of its own copied from the
 * runner's template. A concurrent group runs gated under its schedule entry (`gated-step.ts`),
 * and so does a plain call whose entry plans a crash or a fault; every other plain step has
 * nothing to decide, so the coordinator runs it on its own connection and logs its statements.
 * The coordinator's connection reads the final snapshot. A lane or plain step that hangs ends the
 * run there, with `hang` set and the database as the stopped lanes left it (rolled back); a plain
 * step's hung statement has its backend ended, and a new connection reads. A plain step that
 * waits on a lock a lane holds hangs at once: between steps no lane runs to release it.
 */
import type pg from 'pg';
import type { PostgresHandlerPlugin } from '../../../handlers/postgres/plugin.ts';
import type { Event, Step } from '../../../model/events.ts';
import { checkSnapshotShape } from '../../../model/outcome-shape.ts';
import { operationOf } from '../../../model/state.ts';
import { type Fixture, type Snapshot, withWriteScope } from '../../../model/world.ts';
import type { ScheduledExecution } from '../../../types/execution.ts';
import type { Schedule } from '../../../types/schedule.ts';
import type { LaneRecord, TraceEntry } from '../../../types/scheduled-trace.ts';
import type { Hang } from '../../../types/verdict.ts';
import { UNREADABLE_SNAPSHOT } from '../../mode-runner.ts';
import { drive, wait } from '../../runtime/task.ts';
import { runSteps, type StepsPort } from '../../schedule/run-steps.ts';
import type { LoggedStatement } from '../../schedule/statement-end.ts';
import { isLocked, untilSettled } from '../lock-left-behind.ts';
import { worldEvent } from '../postgres-events.ts';
import type { PostgresServer } from '../server.ts';
import { LaneConnection } from './lane-connection.ts';
import { LaneHung, within } from './lane-hung.ts';
import { LockWatch } from './lock-watch.ts';
import { LoggedConnection } from './logged-connection.ts';
import { runPgGatedStep } from './pg-lane-driver.ts';
import type { RunDatabases } from './run-databases.ts';
import { callHandler, type PgStepContext } from './step-context.ts';

/** What a run needs besides its steps and schedule. */
export interface PgRunEnv {
  readonly plugin: PostgresHandlerPlugin;
  readonly fixture: Fixture;
  /** Where each run's database comes from. */
  readonly databases: RunDatabases;
  readonly server: PostgresServer;
  readonly callTimeoutMs: number;
  readonly grantsMax: number;
}

/** Runs `steps` under `schedule` on a fresh copy of the template; the database is dropped after. */
export async function runPgScheduled(
  env: PgRunEnv,
  steps: readonly Step[],
  schedule: Schedule,
  recordDecisions = false,
): Promise<ScheduledExecution> {
  const database = await env.databases.take();
  const config = env.server.connectionFor(database);
  const opened: { close(): Promise<void> }[] = [];
  const lanes = new Map<number, Promise<LaneConnection>>();
  try {
    const [coordinator, watch] = await Promise.all([
      LoggedConnection.open(config),
      LockWatch.open(config),
    ]);
    opened.push(coordinator, watch);
    const entries: TraceEntry[] = [];
    const records: LaneRecord[] = [];
    const ctx: PgStepContext = {
      plugin: env.plugin,
      entries,
      principals: env.fixture.principals,
      operation: operationOf(env.fixture),
      callTimeoutMs: env.callTimeoutMs,
      grantsMax: env.grantsMax,
      ...(recordDecisions ? { decisions: [] } : {}),
      watch,
      lane(i) {
        let conn = lanes.get(i);
        if (!conn) {
          conn = LaneConnection.open(config);
          lanes.set(i, conn);
          conn.then((c) => opened.push(c)).catch(() => {});
        }
        return conn;
      },
      retire: (i) => lanes.delete(i),
      async lanePids() {
        const open = await Promise.allSettled(lanes.values());
        return new Set(open.flatMap((c) => (c.status === 'fulfilled' ? [c.value.pid] : [])));
      },
    };
    const finished = (snapshot: Snapshot, hang?: Hang): ScheduledExecution => ({
      mode: 'scheduled',
      schedule,
      lanes: records,
      entries,
      snapshot,
      ...(hang ? { hang } : {}),
      ...(ctx.decisions ? { decisions: ctx.decisions } : {}),
    });
    try {
      await drive(runSteps(stepsPort(ctx, coordinator), steps, schedule, records), (fn) => fn());
      return finished(await snapshotOf(env, coordinator, steps.length));
    } catch (thrown) {
      if (!(thrown instanceof LaneHung)) throw thrown;
      // Every lane is stopped by now (`gated-step.ts`), so what they held is rolled back. A plain
      // step (or the snapshot) that hung left its statement on the coordinator's connection,
      // maybe waiting on a lock an idle lane holds for ever (a session-level advisory lock): no
      // later statement there would ever run, so its backend is ended and a new one reads.
      const reader = await afterHang(env, coordinator, watch, config, opened);
      const snapshot = reader
        ? await snapshotOf(env, reader, steps.length).catch(() => UNREADABLE_SNAPSHOT)
        : UNREADABLE_SNAPSHOT;
      return finished(snapshot, thrown.hang);
    }
  } finally {
    for (const c of opened) await c.close();
    env.databases.drop(database);
  }
}

/**
 * The connection to read the snapshot on after a hang: the coordinator's, its leaked transaction
 * rolled back, or, when its hung statement is still out, a new one once that backend has been
 * ended (which also frees every lock it held). Undefined when it would not end within the budget.
 */
async function afterHang(
  env: PgRunEnv,
  coordinator: LoggedConnection,
  watch: LockWatch,
  config: pg.ClientConfig,
  opened: { close(): Promise<void> }[],
): Promise<LoggedConnection | undefined> {
  if (!coordinator.busy) {
    await coordinator.rollbackLeak().catch(() => {});
    return coordinator;
  }
  try {
    await watch.terminate(coordinator.pid, env.callTimeoutMs);
  } catch {
    return undefined;
  }
  const reader = await LoggedConnection.open(config);
  opened.push(reader);
  return reader;
}

/** The plugin's snapshot, checked for shape, within the call budget. */
async function snapshotOf(
  env: PgRunEnv,
  coordinator: LoggedConnection,
  after: number,
): Promise<Snapshot> {
  const snapshot = await within(
    env.plugin.snapshot(coordinator.proxy),
    () => new LaneHung(after, 0, env.callTimeoutMs),
  );
  coordinator.take();
  return checkSnapshotShape(snapshot, env.plugin.name, operationOf(env.fixture));
}

/** PostgreSQL's steps for the shared step loop: gated ones on lane connections, plain ones on the coordinator's. */
function stepsPort(ctx: PgStepContext, coordinator: LoggedConnection): StepsPort {
  const { plugin, operation } = ctx;
  const plain = <T>(work: Promise<T>, step: number, event: Event) =>
    wait(onCoordinator(ctx, coordinator, work, step, event));
  return {
    entries: ctx.entries,
    principals: () => ctx.principals,
    noun: operation.noun,
    gated: (step, events, plan) => wait(runPgGatedStep(ctx, step, events, plan)),
    applyScope(client, granted) {
      ctx.principals = withWriteScope(ctx.principals, client, granted, operation.scope);
    },
    *call(step, principal, event) {
      const work = callHandler(plugin, coordinator.proxy, principal, event);
      const { value, log } = yield* plain(work, step, event);
      return { observed: value, log };
    },
    *world(step, event) {
      return (yield* plain(worldEvent(plugin, coordinator.proxy, event), step, event)).log;
    },
  };
}

/**
 * Plugin code on the coordinator's connection, within the call budget; a transaction it left
 * open is rolled back. Its value, and the statements it ran.
 */
async function onCoordinator<T>(
  ctx: PgStepContext,
  coordinator: LoggedConnection,
  work: Promise<T>,
  step: number,
  event: Event,
): Promise<{ readonly value: T; readonly log: LoggedStatement[] }> {
  const value = await untilAnswered(ctx, coordinator, work, step, event);
  await coordinator.rollbackLeak();
  return { value, log: coordinator.take() };
}

/**
 * `work` (plugin code on the coordinator's connection) within the call budget. Between steps
 * every lane runs nothing, so a statement of it that waits on a lane's lock waits on a lock left
 * behind (`lock-left-behind.ts`): a hang at once. Throws `LaneHung` either way.
 */
async function untilAnswered<T>(
  ctx: PgStepContext,
  coordinator: LoggedConnection,
  work: Promise<T>,
  step: number,
  event: Event,
): Promise<T> {
  const leftBehind = async () => {
    const blockers = (await ctx.watch.waitsFor([coordinator.pid])).get(coordinator.pid) ?? [];
    if (blockers.length === 0) return false;
    const lanes = await ctx.lanePids();
    return blockers.some((b) => lanes.has(b));
  };
  const waited = await untilSettled(work, ctx.callTimeoutMs, () => leftBehind().catch(() => false));
  if (waited.settled) return waited.value;
  throw new LaneHung(step, 0, ctx.callTimeoutMs, event, isLocked(waited) ? 'locked' : 'unsettled');
}
