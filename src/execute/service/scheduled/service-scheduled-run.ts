/**
 * Scheduled execution of one sequence against a service on PostgreSQL, on the run database as the
 * last reset left it. A concurrent group (and a plain call whose entry plans a crash) runs gated
 * (`service-lane-driver.ts`); every other plain step has nothing to decide: a call goes to the
 * service with its statements let through and logged by the gate, a world event runs on the
 * coordinator's connection (the session's harness connection) and is logged there, as on
 * PostgreSQL plugins' runs (`../../postgres/scheduled/run-sequence.ts`). The coordinator reads the
 * snapshot.
 *
 * A lane or plain step that hangs ends the run there, with `hang` set: every request in flight is
 * abandoned and every backend the service has through the proxy is ended (what it held rolls
 * back, its pool opens new connections), then the snapshot is read.
 */
import type pg from 'pg';
import type { Event, Step } from '../../../model/events.ts';
import type { Snapshot } from '../../../model/world.ts';
import type { ScheduledExecution } from '../../../types/execution.ts';
import type { Schedule } from '../../../types/schedule.ts';
import type { LaneRecord, TraceEntry } from '../../../types/scheduled-trace.ts';
import type { Hang } from '../../../types/verdict.ts';
import { UNREADABLE_SNAPSHOT } from '../../mode-runner.ts';
import { worldEvent } from '../../postgres/postgres-events.ts';
import type { PostgresSession } from '../../postgres/postgres-session.ts';
import { LaneHung, within } from '../../postgres/scheduled/lane-hung.ts';
import { LockWatch } from '../../postgres/scheduled/lock-watch.ts';
import { LoggedConnection } from '../../postgres/scheduled/logged-connection.ts';
import { coordinatorSnapshot } from '../../postgres/scheduled/run-sequence.ts';
import { changeScope } from '../../postgres/scheduled/step-context.ts';
import { drive, wait } from '../../runtime/task.ts';
import { runSteps, type StepsPort } from '../../schedule/run-steps.ts';
import { scheduledExecution } from '../../schedule/scheduled-execution.ts';
import { runServiceGatedStep } from './service-lane-driver.ts';
import { type ServiceStepContext, sendCall } from './service-step-context.ts';

/** What a run needs besides its steps and schedule: the step context's fixed parts. */
export type ServiceRunEnv = Omit<
  ServiceStepContext,
  | 'entries'
  | 'principals'
  | 'decisions'
  | 'watch'
  | 'serverOrdered'
  | 'worldConnection'
  | 'requests'
> & {
  readonly session: PostgresSession;
  readonly principals: ServiceStepContext['principals'];
  /** A new connection through the proxy to the run database (a world lane's). */
  connectThroughProxy(): Promise<pg.Client>;
};

/** Runs `steps` under `schedule` against the service. */
export async function runServiceScheduled(
  env: ServiceRunEnv,
  steps: readonly Step[],
  schedule: Schedule,
  recordDecisions = false,
): Promise<ScheduledExecution> {
  const { session, gate } = env;
  const [harness, watchClient] = await Promise.all([session.harness(), session.watcher()]);
  let coordinator = LoggedConnection.over(harness, session.harnessBackend as number);
  const worlds = new Map<number, Promise<pg.Client>>();
  const entries: TraceEntry[] = [];
  const records: LaneRecord[] = [];
  const ctx: ServiceStepContext = {
    ...env,
    entries,
    ...(recordDecisions ? { decisions: [] } : {}),
    watch: LockWatch.over(watchClient),
    serverOrdered: { seen: false },
    requests: new Map(),
    worldConnection(lane) {
      let client = worlds.get(lane);
      if (!client) {
        client = env.connectThroughProxy().then((c) => {
          gate.own(backendPid(c), lane);
          return c;
        });
        worlds.set(lane, client);
      }
      return client;
    },
  };
  const record = { schedule, records, entries, decisions: ctx.decisions };
  const finished = (snapshot: Snapshot, hang?: Hang): ScheduledExecution =>
    scheduledExecution({ ...record, serverOrdered: ctx.serverOrdered.seen }, snapshot, hang);
  try {
    await drive(runSteps(stepsPort(ctx, coordinator), steps, schedule, records), (fn) => fn());
    return finished(await snapshotOf(ctx, coordinator, steps.length));
  } catch (thrown) {
    if (!(thrown instanceof LaneHung)) throw thrown;
    env.markBroken();
    for (const abort of ctx.requests.values()) abort.abort();
    const ending = [...gate.allPids(), ...(coordinator.busy ? [coordinator.pid] : [])];
    for (const pid of ending) await ctx.watch.terminate(pid, env.callTimeoutMs).catch(() => {});
    if (coordinator.busy) {
      coordinator.seal();
      session.forgetHarness();
      coordinator = LoggedConnection.over(
        await session.harness(),
        session.harnessBackend as number,
      );
    } else await coordinator.rollbackLeak().catch(() => {});
    const snapshot = await snapshotOf(ctx, coordinator, steps.length).catch(
      () => UNREADABLE_SNAPSHOT,
    );
    return finished(snapshot, thrown.hang);
  } finally {
    coordinator.seal();
    gate.clear();
    for (const [, opening] of worlds) {
      const client = await opening.catch(() => undefined);
      if (client) gate.disown(backendPid(client));
      await client?.end().catch(() => {});
    }
  }
}

/**
 * The backend pid `pg` read from the server's BackendKeyData at connect (what the proxy names):
 * asking the server would be a statement through the gate.
 */
function backendPid(client: pg.Client): number {
  return (client as unknown as { readonly processID: number }).processID;
}

/** The world's snapshot on the coordinator's connection, checked for shape, within the call budget. */
function snapshotOf(ctx: ServiceStepContext, coordinator: LoggedConnection, after: number) {
  return coordinatorSnapshot(ctx.world, ctx.operation, coordinator, after, ctx.callTimeoutMs);
}

/** The service's steps for the shared step loop: gated ones through the gate, plain ones alone. */
function stepsPort(ctx: ServiceStepContext, coordinator: LoggedConnection): StepsPort {
  const hung = (step: number, event: Event) => () =>
    new LaneHung(step, 0, ctx.callTimeoutMs, event);
  return {
    entries: ctx.entries,
    principals: () => ctx.principals,
    noun: ctx.operation.noun,
    gated: (step, events, plan) => wait(runServiceGatedStep(ctx, step, events, plan)),
    applyScope: (client, granted) => changeScope(ctx, client, granted),
    *call(step, principal, event) {
      ctx.gate.startPlain();
      const abort = new AbortController();
      ctx.requests.set(0, abort);
      try {
        const sent = sendCall(ctx, principal, event, abort.signal);
        const observed = yield* wait(within(sent, hung(step, event)));
        return { observed, log: ctx.gate.takePlain() };
      } finally {
        ctx.requests.delete(0);
      }
    },
    *world(step, event) {
      const work = (async () => {
        await within(worldEvent(ctx.world, coordinator.proxy, event), hung(step, event));
        await coordinator.rollbackLeak();
        return coordinator.take();
      })();
      return yield* wait(work);
    },
  };
}
