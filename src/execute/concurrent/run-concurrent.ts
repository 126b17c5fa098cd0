/**
 * Concurrent execution of one sequence on the runner's database, reset to the template first
 * (`SharedDatabase`: in place, on files the workers keep open): the plain steps between two groups
 * run back to back on one worker, as one task (`plain-batch.ts`); the events of a concurrent group run on distinct workers, released together through a
 * shared barrier (`gate.ts`), so they really overlap on separate connections. Records a
 * `History` (see `operation.ts` for what each kind of step leaves in it) beside the usual
 * `Trace`. A group larger than the pool runs in waves of `pool.size` lanes, each wave released
 * together.
 */
import { ReceiptcheckError } from '../../errors.ts';
import { type Connection, type HandlerPlugin, pluginOperation } from '../../handlers/plugin.ts';
import type { Event, Step } from '../../model/events.ts';
import type { HistoryEntry } from '../../model/history.ts';
import { checkSnapshotShape } from '../../model/outcome-shape.ts';
import { operationOf } from '../../model/state.ts';
import type { Fixture, Snapshot } from '../../model/world.ts';
import type { ConcurrentExecution, Place } from '../../types/execution.ts';
import type { Observation } from '../../types/trace.ts';
import type { Hang } from '../../types/verdict.ts';
import { openConnection } from '../databases.ts';
import { throwIfInterrupted } from '../interrupt.ts';
import type { SharedDatabase } from '../scheduled/shared-database.ts';
import { createGate } from './gate.ts';
import {
  isProblem,
  type OperationTarget,
  operationError,
  operationTask,
  type RecordedOperation,
  rebase,
  recordOperation,
  summariseEvent,
} from './operation.ts';
import { runPlainSteps } from './plain-batch.ts';
import { createScopeTable } from './scope-table.ts';
import { sharedClockMs } from './shared-clock.ts';
import type { WorkerPool } from './worker-pool.ts';

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
    scopes: createScopeTable(ctx.fixture.principals, operationOf(ctx.fixture).scope),
  };
  const started = sharedClockMs();
  const history: HistoryEntry[] = [];
  const places: Place[] = [];
  const returnedAt: (number | undefined)[] = [];
  const observations: Observation[] = [];
  let failure: { thrown: unknown } | undefined;
  let hang: Hang | undefined;
  try {
    const add = (r: RecordedOperation, event: Event, step: number, lane: number) => {
      history.push({ ...rebase(r.entry, started), id: history.length });
      places.push({ step, lane });
      returnedAt.push(r.returnedAt === undefined ? undefined : r.returnedAt - started);
      if (event.kind === 'call' && r.observed)
        observations.push({ step, lane, event, observed: r.observed });
    };
    let step = 0;
    run: while (step < steps.length) {
      const s = steps[step] as Step;
      if (s.kind !== 'concurrent') {
        // The plain steps up to the next group go to one worker as one task (`plain-batch.ts`).
        const events = plainStepsFrom(steps, step);
        const plain = await runPlainSteps(ctx, target, events, step);
        for (const [i, r] of plain.recorded.entries()) add(r, events[i] as Event, step + i, 0);
        if (plain.hang) {
          hang = plain.hang;
          break;
        }
        step += events.length;
        continue;
      }
      const events = s.events;
      for (let from = 0; from < events.length; from += ctx.pool.size) {
        const wave = events.slice(from, from + ctx.pool.size);
        const recorded = await runWave(ctx, target, wave, step, from);
        if (!Array.isArray(recorded)) {
          hang = recorded;
          break run;
        }
        for (const [i, r] of recorded.entries()) add(r, wave[i] as Event, step, from + i);
      }
      step++;
    }
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
  return {
    mode: 'concurrent',
    trace: { observations, snapshot },
    history,
    places,
    returnedAt,
    ...(hang ? { hang } : {}),
  };
}

/** The plain steps from `from` up to the next group or the end. */
function plainStepsFrom(steps: readonly Step[], from: number): Event[] {
  const events: Event[] = [];
  for (let i = from; i < steps.length; i++) {
    const s = steps[i] as Step;
    if (s.kind === 'concurrent') break;
    events.push(s);
  }
  return events;
}

async function runWave(
  ctx: ConcurrentContext,
  target: OperationTarget,
  wave: readonly Event[],
  step: number,
  firstLane: number,
): Promise<RecordedOperation[] | Hang> {
  const sent = wave.filter((e) => operationTask(target, e) !== undefined).length;
  const gate = sent > 1 ? createGate(sent) : undefined;
  const replies = await Promise.all(
    wave.map((event) => {
      const task = operationTask(target, event, gate);
      return task ? ctx.pool.run(task, ctx.callTimeoutMs) : undefined;
    }),
  );
  // A stopped call is the cause; lanes that then timed out waiting on it are consequences.
  const problems = replies
    .map((reply, i) => ({ reply, i }))
    .filter((x) => isProblem(x.reply))
    .sort((a, b) => Number(b.reply?.type === 'stopped') - Number(a.reply?.type === 'stopped'));
  const first = problems[0];
  if (first?.reply?.type === 'stopped') {
    const event = wave[first.i] as Event;
    const lane = firstLane + first.i;
    return { step, lane, event, limitMs: first.reply.afterMs, how: 'thread' };
  }
  if (first?.reply) {
    const lane = firstLane + first.i;
    const where = `step ${step + 1}${wave.length > 1 || firstLane > 0 ? ` (lane ${lane + 1})` : ''}, ${summariseEvent(wave[first.i] as Event)}`;
    throw operationError(where, ctx.plugin.name, first.reply);
  }
  return wave.map((event, i) => recordOperation(event, replies[i], firstLane + i));
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
