/**
 * Scheduled execution of one sequence on a fresh database. A concurrent group runs gated under
 * its schedule entry (`step-coordinator.ts`), and so does a plain call whose entry plans a crash
 * or a fault, which needs the yield points. Every other plain step has nothing to decide, so
 * consecutive ones go to lane 0's worker as one batch, run straight through: one message each way
 * for the lot. Scope changes are the coordinator's own. Each run starts from the template
 * (`shared-database.ts`), and the coordinator's connection reads the final snapshot.
 */
import { ReceiptcheckError } from '../../errors.ts';
import { type Schedule, stepScheduleAt } from '../../generate/schedule.ts';
import type { HandlerPlugin } from '../../handlers/plugin.ts';
import type { CallEvent, Event, Step } from '../../model/events.ts';
import { checkSnapshotShape } from '../../model/outcome-shape.ts';
import { type Fixture, type Snapshot, withWriteScope } from '../../model/world.ts';
import type { LaneWorkers } from './lane-workers.ts';
import type { BatchItem, BatchResult } from './protocol.ts';
import type { LaneRecord, TraceEntry } from './scheduled-trace.ts';
import type { SharedDatabase } from './shared-database.ts';
import { hasWriteScope, runGatedStep, type StepContext } from './step-coordinator.ts';

/** What a scheduled run needs besides the sequence and its schedule. */
export interface RunContext {
  readonly plugin: HandlerPlugin;
  readonly database: SharedDatabase;
  readonly workers: LaneWorkers;
  readonly fixture: Fixture;
  readonly callTimeoutMs: number;
  readonly grantsMax: number;
  readonly crashMode: 'connection' | 'thread';
  readonly runAheadMax: number;
}

/** One executed sequence: every lane's record, every grant, and the final database. */
export interface ScheduledExecution {
  readonly lanes: readonly LaneRecord[];
  readonly entries: readonly TraceEntry[];
  readonly snapshot: Snapshot;
}

/** A plain step waiting in the batch: where it stands, and what lane 0's worker is to do. */
interface Pending {
  readonly step: number;
  readonly event: Exclude<Event, { kind: 'concurrent' }>;
  readonly item?: BatchItem;
}

/** Runs `steps` under `schedule`. On any error every worker is stopped, so the next run starts clean. */
export async function runScheduled(
  ctx: RunContext,
  steps: readonly Step[],
  schedule: Schedule,
): Promise<ScheduledExecution> {
  ctx.database.reset();
  const path = ctx.database.path;
  ctx.workers.setScopes(ctx.fixture.principals, hasWriteScope);
  const run: StepContext = {
    workers: ctx.workers,
    dbPath: path,
    principals: ctx.fixture.principals,
    entries: [],
    callTimeoutMs: ctx.callTimeoutMs,
    grantsMax: ctx.grantsMax,
    crashMode: ctx.crashMode,
    runAheadMax: ctx.runAheadMax,
  };
  const lanes: LaneRecord[] = [];
  let pending: Pending[] = [];
  const flush = async () => {
    lanes.push(...(await runBatch(run, pending)));
    pending = [];
  };
  try {
    for (const [i, s] of steps.entries()) {
      const plan = stepScheduleAt(schedule, i);
      if (s.kind === 'concurrent' || (s.kind === 'call' && (plan.crash || plan.fault))) {
        await flush();
        const events = s.kind === 'concurrent' ? s.events : [s];
        lanes.push(...(await runGatedStep(run, i, events, plan)));
      } else pending.push(plainStep(run, i, s));
    }
    await flush();
    const snapshot = checkSnapshotShape(ctx.plugin.snapshot(ctx.database.db), ctx.plugin.name);
    return { lanes, entries: run.entries, snapshot };
  } catch (thrown) {
    await ctx.workers.closeAll();
    throw thrown;
  }
}

/** Queues a plain step: a scope change takes effect at once; a call carries the principal as it stands. */
function plainStep(
  run: StepContext,
  step: number,
  event: Exclude<Step, { kind: 'concurrent' }>,
): Pending {
  switch (event.kind) {
    case 'revoke':
    case 'restore': {
      const granted = event.kind === 'restore';
      run.principals = withWriteScope(run.principals, event.client, granted);
      Atomics.store(run.workers.scopes, event.client, granted ? 1 : 0);
      return { step, event };
    }
    case 'call': {
      if (event.delivery === 'lostRequest') return { step, event };
      const principal = run.principals[event.client];
      if (!principal)
        throw new RangeError(`step ${step + 1}: no principal for client ${event.client}`);
      return { step, event, item: { kind: 'call', principal, event } };
    }
    default:
      return { step, event, item: { kind: 'world', event } };
  }
}

/** Runs the queued plain steps as one batch on lane 0; records their statements and outcomes. */
async function runBatch(run: StepContext, pending: readonly Pending[]): Promise<LaneRecord[]> {
  const items = pending.flatMap((p) => (p.item ? [p.item] : []));
  let results: readonly BatchResult[] = [];
  if (items.length > 0) {
    const worker = await run.workers.get(0);
    worker.send({ type: 'batch', dbPath: run.dbPath, items });
    const report = worker.next(run.callTimeoutMs * items.length);
    if (report?.type === 'failed') throw ReceiptcheckError.fromData(report.error);
    if (report?.type !== 'batchDone') {
      await run.workers.kill(0);
      throw new ReceiptcheckError(
        'E_CALL_TIMEOUT',
        `steps ${(pending[0]?.step ?? 0) + 1}–${(pending.at(-1)?.step ?? 0) + 1}: a call did not return within ${run.callTimeoutMs} ms (a hung call, or a handler waiting on something outside the database)`,
      );
    }
    results = report.results;
  }
  let next = 0;
  return pending.map(({ step, event, item }) => {
    const at = run.entries.length;
    if (!item) {
      if (event.kind === 'call')
        return {
          step,
          lane: 0,
          event,
          end: { kind: 'observed', observed: { kind: 'notSent' }, faulted: false },
          effectAt: at,
        };
      run.entries.push({
        step,
        lane: 0,
        point: 'scope',
        grant: 'run',
        sql: `${event.kind} client ${(event as { client: number }).client + 1}`,
        result: 'ok',
      });
      return { step, lane: 0, event, end: { kind: 'applied' }, effectAt: at };
    }
    const r = results[next++];
    if (!r) throw new Error(`the batch returned no result for step ${step + 1}`);
    if (event.kind !== 'call')
      run.entries.push({
        step,
        lane: 0,
        point: 'world',
        grant: 'run',
        sql: describeWorld(event),
        result: 'ok',
      });
    for (const s of r.log)
      run.entries.push({
        step,
        lane: 0,
        point: 'statement',
        grant: 'run',
        sql: s.sql,
        result: s.result,
        ...(s.durable ? { durable: true } : {}),
      });
    if (event.kind !== 'call')
      return { step, lane: 0, event, end: { kind: 'applied' }, effectAt: at };
    if (!r.observed)
      throw new Error(`the batch returned no outcome for the call at step ${step + 1}`);
    return {
      step,
      lane: 0,
      event,
      end: { kind: 'observed', observed: r.observed, faulted: false },
      effectAt: at,
    };
  });
}

/** A world event in a few words, for the lanes view. */
export function describeWorld(event: Exclude<Event, CallEvent>): string {
  switch (event.kind) {
    case 'move':
    case 'recreate':
      return `${event.kind} automation ${event.automationId} to ${event.workspace}`;
    case 'delete':
      return `delete automation ${event.automationId}`;
    case 'storeFail':
      return 'receipt store starts failing';
    case 'storeRestore':
      return 'receipt store restored';
    default:
      return `${event.kind} client ${event.client + 1}`;
  }
}
