/**
 * Concurrent execution of one sequence on the runner's database, reset to the template first
 * (`SharedDatabase`: in place, on files the workers keep open). The run is planned up front
 * (`run-plan.ts`): the plain steps between two groups run back to back on one worker, and the
 * events of a concurrent group run on distinct workers, released together through a shared
 * barrier (`gate.ts`), so they really overlap on separate connections. Each worker gets its whole
 * share of the run as one task and moves from phase to phase on a shared board (`run-board.ts`),
 * so a run costs a message each way per worker instead of one per batch of plain steps and per
 * lane. Records a `History` (see `operation.ts` for what each kind of step leaves in it) beside
 * the usual `Trace`. A group larger than the pool runs in waves of `pool.size` lanes, each wave
 * released together.
 */
import { ReceiptcheckError } from '../../../errors.ts';
import { type Connection, type HandlerPlugin, pluginOperation } from '../../../handlers/plugin.ts';
import type { Event, Step } from '../../../model/events.ts';
import type { OperationSpec } from '../../../model/operation.ts';
import { checkSnapshotShape } from '../../../model/outcome-shape.ts';
import type { Fixture, Snapshot } from '../../../model/world.ts';
import type { ConcurrentExecution } from '../../../types/execution.ts';
import type { Hang } from '../../../types/verdict.ts';
import { ConcurrentRecord } from '../../concurrent-record.ts';
import { keepOutput } from '../../runtime/contain/handler-output.ts';
import { throwIfInterrupted } from '../../runtime/interrupt.ts';
import { openConnection } from '../databases.ts';
import type { SharedDatabase } from '../shared-database.ts';
import {
  type OperationTarget,
  operationError,
  operationTask,
  type RecordedOperation,
  rebase,
  recordOperation,
  summariseEvent,
} from './operation.ts';
import type { GateRef, ScriptItem, WorkerReply } from './protocol.ts';
import { abortBoard, createBoard, phaseEndedMs } from './run-board.ts';
import { createJournal, isWaiting, itemStartedMs, readReplies } from './run-journal.ts';
import { type PlannedOp, planRun, type RunPlan } from './run-plan.ts';
import { createScopeTable } from './scope-table.ts';
import { sharedClockMs } from './shared-clock.ts';
import type { PoolReply, WorkerPool } from './worker-pool.ts';

/** How long a task sent to every worker (warm-up, release) may wait for all of them, in ms. */
export const BROADCAST_LIMIT_MS = 30_000;

/** What a concurrent run needs besides the sequence. */
export interface ConcurrentContext {
  readonly pool: WorkerPool;
  /** The database every run resets and runs on; replaced after a hang (see `concurrent-mode.ts`). */
  readonly database: () => SharedDatabase;
  readonly plugin: HandlerPlugin;
  readonly handlerPath: string;
  readonly fixture: Fixture;
  /** The operation the run checks, as `prepareRun` resolved it. */
  readonly spec: OperationSpec;
  readonly callTimeoutMs: number;
}

/**
 * Runs `steps` as run number `runNumber`. A call that does not return within the call budget is a
 * hang: its worker is terminated (piscina starts a fresh one), the run stops there with `hang`
 * set, and the history and snapshot hold what happened before it; the caller must then replace
 * the database (the stopped worker's connection may hold its lock).
 */
export async function runConcurrent(
  ctx: ConcurrentContext,
  steps: readonly Step[],
  runNumber: number,
): Promise<ConcurrentExecution> {
  throwIfInterrupted();
  const database = ctx.database();
  // Every worker is idle between runs, and none ends a task inside a transaction.
  database.reset();
  const target: OperationTarget = {
    ...ctx,
    dbPath: database.path,
    run: runNumber,
    scopes: createScopeTable(ctx.fixture.principals, ctx.spec.scope),
  };
  const started = sharedClockMs();
  const record = new ConcurrentRecord();
  const { history, places, returnedAt, observations } = record;
  let failure: { thrown: unknown } | undefined;
  let hang: Hang | undefined;
  try {
    const plan = planRun(steps, ctx.pool.size, (event, gate) => scriptItem(target, event, gate));
    const outcome = readBack(ctx, steps, plan, await runScripts(ctx, plan), started);
    for (const { op, recorded: r } of outcome.recorded) {
      history.push({ ...rebase(r.entry, started), id: history.length });
      places.push({ step: op.step, lane: op.lane });
      returnedAt.push(r.returnedAt === undefined ? undefined : r.returnedAt - started);
      if (op.event.kind === 'call' && r.observed)
        observations.push({ step: op.step, lane: op.lane, event: op.event, observed: r.observed });
    }
    hang = outcome.hang;
  } catch (thrown) {
    failure = { thrown };
  }
  let snapshot: Snapshot | undefined;
  try {
    if (!failure) snapshot = snapshotOf(ctx.plugin, database.db);
  } catch (thrown) {
    failure = { thrown };
  }
  if (failure || !snapshot) throw failure?.thrown;
  return record.execution(snapshot, hang);
}

/** An event's script item (see `run-plan.ts`); undefined for a lost request. */
function scriptItem(target: OperationTarget, event: Event, gate?: GateRef): ScriptItem | undefined {
  const task = operationTask(target, event, gate);
  if (!task) return undefined;
  if (task.type === 'call' || task.type === 'world' || task.type === 'scope') return task;
  throw new Error(`no script item for a ${task.type} task`);
}

/** What each worker slot answered, and its replies as far as it got (from its journal if stopped). */
interface SlotReplies {
  readonly reply: PoolReply;
  readonly replies: readonly WorkerReply[];
}

/** A run's board after the run, and every slot's replies. */
interface Ran {
  readonly board: SharedArrayBuffer;
  readonly slots: readonly SlotReplies[];
}

/**
 * Sends every worker slot its script at once and waits for all of them. Each runs under the call
 * budget of the item it is on (read from its journal), so a hung item stops its worker alone.
 * Waiting for a phase is not charged to an item, but a run's waits together are bounded by the
 * budget of all its items, so a run can never wait for ever. A worker that ends short of its
 * script (its item failed, or it was stopped or died) aborts the board, so that the others return.
 */
async function runScripts(ctx: ConcurrentContext, plan: RunPlan): Promise<Ran> {
  const board = createBoard(plan.phases);
  const items = plan.ops.filter((op) => op.at).length;
  const waitLimitMs = (items + 1) * ctx.callTimeoutMs;
  const waitDeadline = sharedClockMs() + waitLimitMs;
  const slots = await Promise.all(
    plan.scripts.map(async (parts) => {
      const journal = createJournal();
      let waitedOut = false;
      const budget = () => {
        if (!isWaiting(journal))
          return itemStartedMs(journal) + ctx.callTimeoutMs - sharedClockMs();
        const left = waitDeadline - sharedClockMs();
        waitedOut = left <= 0;
        return Math.min(left, ctx.callTimeoutMs);
      };
      const reply = await ctx.pool.run(
        { type: 'script', parts, board, journal, limitMs: ctx.callTimeoutMs },
        ctx.callTimeoutMs,
        budget,
      );
      const replies = reply.type === 'scripted' ? reply.replies : readReplies(journal);
      if (replies.length < parts.reduce((n, p) => n + p.items.length, 0)) abortBoard(board);
      for (const r of replies) if (r.output) keepOutput(r.output);
      if (waitedOut)
        throw new ReceiptcheckError(
          'E_WORKER',
          `a concurrent run's workers waited for one another longer than ${waitLimitMs} ms, the budget of all its operations together`,
        );
      return { reply, replies };
    }),
  );
  return { board, slots };
}

/** The operations recorded in step and lane order up to the first problem, and the hang if that was one. */
interface ReadBack {
  readonly recorded: readonly { readonly op: PlannedOp; readonly recorded: RecordedOperation }[];
  readonly hang?: Hang;
}

/**
 * Reads the run back in step order. At the first step where an operation did not succeed, it
 * stops: a stopped call is a hang (the cause; lanes that then failed are its consequences), any
 * other failure is thrown, naming its step (and lane, in a group) as a task of its own would have.
 */
function readBack(
  ctx: ConcurrentContext,
  steps: readonly Step[],
  plan: RunPlan,
  { board, slots }: Ran,
  started: number,
): ReadBack {
  const recorded: { op: PlannedOp; recorded: RecordedOperation }[] = [];
  for (let from = 0; from < plan.ops.length; ) {
    const step = (plan.ops[from] as PlannedOp).step;
    let to = from;
    while (to < plan.ops.length && (plan.ops[to] as PlannedOp).step === step) to++;
    const ops = plan.ops.slice(from, to);
    const problem = firstProblem(ops, slots);
    if (problem) {
      const { op, reply } = problem;
      if (reply.type === 'stopped')
        return {
          recorded,
          hang: { step, lane: op.lane, event: op.event, limitMs: reply.afterMs, how: 'thread' },
        };
      const s = steps[step] as Step;
      const lane = s.kind === 'concurrent' && s.events.length > 1 ? ` (lane ${op.lane + 1})` : '';
      throw operationError(
        `step ${step + 1}${lane}, ${summariseEvent(op.event)}`,
        ctx.plugin.name,
        reply,
      );
    }
    for (const op of ops) {
      const reply = op.at
        ? slots[op.at.slot]?.replies[op.at.index]
        : ({ type: 'stamped', at: stampOf(board, op, started) } as const);
      recorded.push({ op, recorded: recordOperation(op.event, reply, op.lane) });
    }
    from = to;
  }
  return { recorded };
}

/**
 * The first problem among one step's operations: a stopped worker's item in progress before any
 * failure (a stopped call is the cause; lanes that then timed out waiting on it are consequences),
 * then failures in lane order. An operation that never ran because the board was aborted is no
 * problem of its own: the problem that aborted it is at this step or an earlier one.
 */
function firstProblem(
  ops: readonly PlannedOp[],
  slots: readonly SlotReplies[],
): { readonly op: PlannedOp; readonly reply: PoolReply } | undefined {
  let failed: { op: PlannedOp; reply: PoolReply } | undefined;
  let missing: PlannedOp | undefined;
  for (const op of ops) {
    if (!op.at) continue;
    const slot = slots[op.at.slot] as SlotReplies;
    const reply = slot.replies[op.at.index];
    if (reply?.type === 'failed') failed ??= { op, reply };
    if (reply) continue;
    // The item the worker was on when it stopped or died.
    if (op.at.index === slot.replies.length && slot.reply.type === 'stopped')
      return { op, reply: slot.reply };
    if (op.at.index === slot.replies.length && slot.reply.type === 'failed')
      failed ??= { op, reply: slot.reply };
    missing ??= op;
  }
  if (failed || !missing) return failed;
  const error = {
    code: 'E_WORKER',
    message: 'it never ran: the run was aborted with no failure before it',
  } as const;
  return { op: missing, reply: { type: 'failed', error } };
}

/** When a lost request in a group is stamped: the end of the phase it stands after. */
function stampOf(board: SharedArrayBuffer, op: PlannedOp, started: number): number {
  const after = op.stampedAfter ?? -1;
  if (after < 0) return started;
  return phaseEndedMs(board, after) ?? sharedClockMs();
}
/**
 * Closes `dbPath`'s connection on every worker, so the file can be deleted. Generous limit: a
 * worker replacing one stopped by a timeout may still be starting; a stopped worker has no
 * connection left.
 */
export async function releaseEverywhere(pool: WorkerPool, dbPath: string): Promise<void> {
  const replies = await pool.broadcast(
    (gate) => ({ type: 'release', dbPath, gate, limitMs: BROADCAST_LIMIT_MS }),
    BROADCAST_LIMIT_MS,
  );
  const bad = replies.find((r) => r.type === 'failed');
  if (bad?.type === 'failed') throw ReceiptcheckError.fromData(bad.error);
}

/** The plugin's snapshot, read on a connection of this thread once the workers have let go. */
export function readSnapshot(plugin: HandlerPlugin, path: string): Snapshot {
  const db = openConnection(path);
  try {
    return snapshotOf(plugin, db);
  } finally {
    db.close();
  }
}

/** The plugin's snapshot of `db`, checked for shape. */
function snapshotOf(plugin: HandlerPlugin, db: Connection): Snapshot {
  return checkSnapshotShape(plugin.snapshot(db), plugin.name, pluginOperation(plugin));
}
