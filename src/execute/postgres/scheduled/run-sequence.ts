/**
 * Scheduled execution of one sequence on PostgreSQL, on a database of its own copied from the
 * runner's template. A concurrent group runs gated under its schedule entry (`gated-step.ts`),
 * and so does a plain call whose entry plans a crash or a fault; every other plain step has
 * nothing to decide, so the coordinator runs it on its own connection and logs its statements.
 * The coordinator's connection reads the final snapshot. A lane or plain step that hangs ends the
 * run there, with `hang` set and the database as the stopped lanes left it (rolled back).
 */
import type { PostgresHandlerPlugin } from '../../../handlers/postgres/plugin.ts';
import { type CallEvent, type Event, type Step, unsentOutcome } from '../../../model/events.ts';
import { checkSnapshotShape } from '../../../model/outcome-shape.ts';
import { operationOf } from '../../../model/state.ts';
import { type Fixture, type Snapshot, withWriteScope } from '../../../model/world.ts';
import type { ScheduledExecution } from '../../../types/execution.ts';
import { type Schedule, stepScheduleAt } from '../../../types/schedule.ts';
import type { LaneRecord, TraceEntry } from '../../../types/scheduled-trace.ts';
import type { Hang } from '../../../types/verdict.ts';
import { UNREADABLE_SNAPSHOT } from '../../run-sequential.ts';
import { describeWorld } from '../../scheduled/coordinator/run-scheduled.ts';
import { worldEvent } from '../postgres-events.ts';
import type { PostgresServer } from '../server.ts';
import { runPgGatedStep } from './gated-step.ts';
import { LaneConnection } from './lane-connection.ts';
import { LaneHung, within } from './lane-hung.ts';
import { LockWatch } from './lock-watch.ts';
import { LoggedConnection } from './logged-connection.ts';
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
    };
    const finished = (snapshot: Snapshot, hang?: Hang): ScheduledExecution => ({
      mode: 'scheduled',
      schedule,
      lanes: records,
      entries,
      snapshot,
      ...(hang ? { hang } : {}),
    });
    try {
      for (const [i, s] of steps.entries()) {
        const plan = stepScheduleAt(schedule, i);
        if (s.kind === 'concurrent' || (s.kind === 'call' && (plan.crash || plan.fault)))
          records.push(
            ...(await runPgGatedStep(ctx, i, s.kind === 'concurrent' ? s.events : [s], plan)),
          );
        else records.push(await plainStep(ctx, coordinator, i, s));
      }
      return finished(await snapshotOf(env, coordinator, steps.length));
    } catch (thrown) {
      if (!(thrown instanceof LaneHung)) throw thrown;
      // Every lane is stopped by now (`gated-step.ts`), so what they held is rolled back.
      await coordinator.rollbackLeak().catch(() => {});
      const snapshot = await snapshotOf(env, coordinator, steps.length).catch(
        () => UNREADABLE_SNAPSHOT,
      );
      return finished(snapshot, thrown.hang);
    }
  } finally {
    for (const c of opened) await c.close();
    env.databases.drop(database);
  }
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

/** A step with nothing to decide, on the coordinator's connection; its statements go into the trace as lane 0's. */
async function plainStep(
  ctx: PgStepContext,
  coordinator: LoggedConnection,
  step: number,
  event: Exclude<Step, { kind: 'concurrent' }>,
): Promise<LaneRecord> {
  const at = ctx.entries.length;
  const record = (end: LaneRecord['end']): LaneRecord => ({
    step,
    lane: 0,
    event,
    end,
    effectAt: at,
  });
  const note = (point: 'scope' | 'world', sql: string) =>
    ctx.entries.push({ step, lane: 0, point, grant: 'run', sql, result: 'ok' });
  const hung = () => new LaneHung(step, 0, ctx.callTimeoutMs, event);
  switch (event.kind) {
    case 'revoke':
    case 'restore':
      ctx.principals = withWriteScope(
        ctx.principals,
        event.client,
        event.kind === 'restore',
        ctx.operation.scope,
      );
      note('scope', `${event.kind} client ${event.client + 1}`);
      return record({ kind: 'applied' });
    case 'call': {
      const unsent = unsentOutcome(event);
      if (unsent) return record({ kind: 'observed', observed: unsent, faulted: false });
      const principal = ctx.principals[event.client];
      if (!principal)
        throw new RangeError(`step ${step + 1}: no principal for client ${event.client}`);
      const observed = await within(
        callHandler(ctx.plugin, coordinator.proxy, principal, event as CallEvent),
        hung,
      );
      await coordinator.rollbackLeak();
      logStatements(ctx, step, coordinator);
      return record({ kind: 'observed', observed, faulted: false });
    }
    default:
      note('world', describeWorld(event as Exclude<Event, CallEvent>, ctx.operation.noun));
      await within(worldEvent(ctx.plugin, coordinator.proxy, event), hung);
      await coordinator.rollbackLeak();
      logStatements(ctx, step, coordinator);
      return record({ kind: 'applied' });
  }
}

function logStatements(ctx: PgStepContext, step: number, coordinator: LoggedConnection): void {
  for (const s of coordinator.take())
    ctx.entries.push({
      step,
      lane: 0,
      point: 'statement',
      grant: 'run',
      sql: s.sql,
      ...(s.params ? { params: s.params } : {}),
      result: s.result,
      ...(s.durable ? { durable: true } : {}),
    });
}
