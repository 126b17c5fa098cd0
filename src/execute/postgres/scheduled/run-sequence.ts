/**
 * Scheduled execution of one sequence on PostgreSQL, on the runner's run database as the last
 * reset left it, over the session's kept connections (`../postgres-session.ts`): the harness
 * connection is the coordinator's, the side connection watches, each lane has its own. A
 * concurrent group runs gated under its schedule entry (`gated-step.ts`),
 * and so does a plain call whose entry plans a crash or a fault; every other plain step has
 * nothing to decide, so the coordinator runs it on its own connection and logs its statements.
 * The coordinator's connection reads the final snapshot. A lane or plain step that hangs ends the
 * run there, with `hang` set and the database as the stopped lanes left it (rolled back); a plain
 * step's hung statement has its backend ended, and a new connection reads. A plain step that
 * waits on a lock a lane holds hangs at once: between steps no lane runs to release it.
 *
 * When the run is over every wrapper the plugin saw is sealed. A connection that is not quiet
 * (a crash ended it; after a hang, any lane; a statement or report still out) has its backend
 * ended and is forgotten, so the next run opens a new one; the others are cleaned by the reset.
 */
import type { PostgresHandlerPlugin } from '../../../handlers/postgres/plugin.ts';
import type { Event, Step } from '../../../model/events.ts';
import type { OperationSpec } from '../../../model/operation.ts';
import { checkSnapshotShape } from '../../../model/outcome-shape.ts';
import { type Fixture, type Snapshot, withWriteScope } from '../../../model/world.ts';
import type { ScheduledExecution } from '../../../types/execution.ts';
import type { Schedule } from '../../../types/schedule.ts';
import type { LaneRecord, TraceEntry } from '../../../types/scheduled-trace.ts';
import type { Hang } from '../../../types/verdict.ts';
import { UNREADABLE_SNAPSHOT } from '../../mode-runner.ts';
import { drive, wait } from '../../runtime/task.ts';
import { runSteps, type StepsPort } from '../../schedule/run-steps.ts';
import { scheduledExecution } from '../../schedule/scheduled-execution.ts';
import type { LoggedStatement } from '../../schedule/statement-end.ts';
import { isLocked, untilSettled } from '../lock-left-behind.ts';
import { worldEvent } from '../postgres-events.ts';
import type { PostgresSession } from '../postgres-session.ts';
import { LaneConnection } from './lane-connection.ts';
import { LaneHung, within } from './lane-hung.ts';
import { LockWatch, takesSessionLock } from './lock-watch.ts';
import { LoggedConnection } from './logged-connection.ts';
import { runPgGatedStep } from './pg-lane-driver.ts';
import { callHandler, type PgStepContext } from './step-context.ts';

/** What a run needs besides its steps and schedule. */
export interface PgRunEnv {
  readonly plugin: PostgresHandlerPlugin;
  readonly fixture: Fixture;
  /** The operation the run checks, as `prepareRun` resolved it. */
  readonly spec: OperationSpec;
  /** The run database, reset before this run, and the kept connections to it. */
  readonly session: PostgresSession;
  readonly callTimeoutMs: number;
  readonly grantsMax: number;
}

/** Runs `steps` under `schedule` on the session's run database and kept connections. */
export async function runPgScheduled(
  env: PgRunEnv,
  steps: readonly Step[],
  schedule: Schedule,
  recordDecisions = false,
): Promise<ScheduledExecution> {
  const { session } = env;
  const [harness, watchClient] = await Promise.all([session.harness(), session.watcher()]);
  let coordinator = LoggedConnection.over(harness, session.harnessBackend as number);
  const watch = LockWatch.over(watchClient);
  const lanes = new Map<number, Promise<LaneConnection>>();
  let quiet = false;
  try {
    const entries: TraceEntry[] = [];
    const records: LaneRecord[] = [];
    const ctx: PgStepContext = {
      plugin: env.plugin,
      entries,
      principals: env.fixture.principals,
      operation: env.spec,
      callTimeoutMs: env.callTimeoutMs,
      grantsMax: env.grantsMax,
      ...(recordDecisions ? { decisions: [] } : {}),
      watch,
      sessionLocks: { taken: false },
      serverOrdered: { seen: false },
      lane(i) {
        let conn = lanes.get(i);
        if (!conn) {
          conn = session.lane(i).then((l) => LaneConnection.over(l.client, l.backend));
          lanes.set(i, conn);
        }
        return conn;
      },
      retire(i) {
        lanes.delete(i);
        session.forgetLane(i);
      },
      restart(i) {
        lanes.delete(i);
        return session.restartLane(i);
      },
      async lanePids() {
        const open = await Promise.allSettled(lanes.values());
        return new Set(open.flatMap((c) => (c.status === 'fulfilled' ? [c.value.pid] : [])));
      },
    };
    const record = { schedule, records, entries, decisions: ctx.decisions };
    const finished = (snapshot: Snapshot, hang?: Hang): ScheduledExecution =>
      scheduledExecution({ ...record, serverOrdered: ctx.serverOrdered.seen }, snapshot, hang);
    try {
      await drive(runSteps(stepsPort(ctx, coordinator), steps, schedule, records), (fn) => fn());
      const snapshot = await snapshotOf(env, coordinator, steps.length);
      quiet = true;
      return finished(snapshot);
    } catch (thrown) {
      if (!(thrown instanceof LaneHung)) throw thrown;
      // Every lane is stopped by now (`gated-step.ts`), so what they held is rolled back. A plain
      // step (or the snapshot) that hung left its statement on the coordinator's connection,
      // maybe waiting on a lock an idle lane holds for ever (a session-level advisory lock): no
      // later statement there would ever run, so its backend is ended and a new one reads.
      const reader = await afterHang(env, coordinator, watch);
      if (reader) coordinator = reader;
      const snapshot = reader
        ? await snapshotOf(env, reader, steps.length).catch(() => UNREADABLE_SNAPSHOT)
        : UNREADABLE_SNAPSHOT;
      return finished(snapshot, thrown.hang);
    }
  } finally {
    await release(env, coordinator, watch, lanes, quiet);
  }
}

/**
 * Seals what the plugin saw of this run's connections, and ends the backend of every one that
 * is not quiet (every lane after a hang or an error): the session opens a new one on next use.
 */
async function release(
  env: PgRunEnv,
  coordinator: LoggedConnection,
  watch: LockWatch,
  lanes: ReadonlyMap<number, Promise<LaneConnection>>,
  quiet: boolean,
): Promise<void> {
  coordinator.seal();
  for (const [i, opening] of lanes) {
    const conn = await opening.catch(() => undefined);
    conn?.seal();
    if (conn && quiet && conn.quiet) continue;
    env.session.forgetLane(i);
    if (conn) {
      await watch.terminate(conn.pid, env.callTimeoutMs).catch(() => {});
      void conn.close();
    }
  }
  // A transaction left open is the reset's to roll back; a statement still out is not.
  if (!coordinator.busy) return;
  await watch.terminate(coordinator.pid, env.callTimeoutMs).catch(() => {});
  env.session.forgetHarness();
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
  coordinator.seal();
  env.session.forgetHarness();
  const harness = await env.session.harness();
  return LoggedConnection.over(harness, env.session.harnessBackend as number);
}

/** The plugin's snapshot, checked for shape, within the call budget. */
function snapshotOf(
  env: PgRunEnv,
  coordinator: LoggedConnection,
  after: number,
): Promise<Snapshot> {
  return coordinatorSnapshot(env.plugin, env.spec, coordinator, after, env.callTimeoutMs);
}

/**
 * The world's snapshot on the coordinator's connection after step `after`, checked for shape,
 * within `limitMs` (a `LaneHung` past it).
 */
export async function coordinatorSnapshot(
  world: PostgresHandlerPlugin,
  operation: OperationSpec,
  coordinator: LoggedConnection,
  after: number,
  limitMs: number,
): Promise<Snapshot> {
  const snapshot = await within(
    world.snapshot(coordinator.proxy),
    () => new LaneHung(after, 0, limitMs),
  );
  coordinator.take();
  return checkSnapshotShape(snapshot, world.name, operation);
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
  const log = coordinator.take();
  if (!ctx.sessionLocks.taken && log.some((s) => takesSessionLock(s.sql)))
    ctx.sessionLocks.taken = true;
  return { value, log };
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
