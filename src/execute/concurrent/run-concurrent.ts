/**
 * Concurrent execution of one sequence on the runner's database, reset to the template first
 * (`SharedDatabase`: in place, on a file the workers keep open). Records a `History` (see
 * `operation.ts` for what each kind of step leaves in it) beside the usual `Trace`.
 *
 * The design, for speed without losing what the mode checks. A run used to cost a message round
 * trip to a worker per step (on this kind of VM a futex wake-up costs tens of µs each way), a
 * file copied, released on every worker and unlinked, and a fixed 1 ms spin per group. Now:
 *
 * - one job per part (`run-plan.ts`), handed to a worker already waiting for it through shared
 *   memory (`part-servers.ts`, `mailbox.ts`): part 0 runs every plain step back to back on its
 *   worker, and only a run with concurrent groups uses more workers, one per lane of its widest
 *   wave;
 * - the lanes of a wave meet on shared memory (`lane-board.ts`), still on separate threads and
 *   connections, released together once all of them are running, with no fixed delay;
 * - the main thread does not take part until the run ends: it reads each part's journal
 *   (`part-journal.ts`), in step and lane order, into the history;
 * - the hang watch (`hang-watch.ts`) is one timer reading what each part is running; a call past
 *   the budget gets its worker terminated (piscina starts a fresh one), as before; the runner
 *   then quits the other serve tasks and warms the pool again before the next run. The run stops
 *   there with `hang` set; the history holds the waves before the hung one, from the journals,
 *   the terminated part's included, and the snapshot what the database held.
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
import { type FoundHang, watchParts } from './hang-watch.ts';
import { abortRun, type LaneBoard } from './lane-board.ts';
import { operationError, rebase, recordOperation, summariseEvent } from './operation.ts';
import { type JournalEntry, readEntries } from './part-journal.ts';
import type { PartServers } from './part-servers.ts';
import type { ScopeTableRef } from './protocol.ts';
import { planRun, waveStart } from './run-plan.ts';
import { resetScopeTable } from './scope-table.ts';
import { sharedClockMs } from './shared-clock.ts';
import type { PoolReply, WorkerPool } from './worker-pool.ts';

/** How long a task sent to every worker (warm-up, release) may wait for all of them, in ms. */
export const BROADCAST_LIMIT_MS = 30_000;

/** What a concurrent run needs besides the sequence. */
export interface ConcurrentContext {
  readonly pool: WorkerPool;
  /** The database every run resets and runs on; replaced after a hang (see `concurrent-mode.ts`). */
  readonly database: () => SharedDatabase;
  /** The shared memory the parts meet on. */
  readonly board: LaneBoard;
  /** The workers serving parts. */
  readonly servers: PartServers;
  /** The principals' scopes, reset before each run. */
  readonly scopes: ScopeTableRef;
  readonly plugin: HandlerPlugin;
  readonly handlerPath: string;
  readonly fixture: Fixture;
  readonly callTimeoutMs: number;
}

/**
 * Runs `steps` as run number `runNumber`. A call that does not return within the call budget is
 * a hang (see above); the caller must then replace the database, since the stopped worker's
 * connection may hold its lock.
 */
export async function runConcurrent(
  ctx: ConcurrentContext,
  steps: readonly Step[],
  runNumber: number,
): Promise<ConcurrentExecution> {
  throwIfInterrupted();
  const database = ctx.database();
  // Every worker is idle between runs, and none ends an operation inside a transaction.
  database.reset();
  const size = ctx.pool.size;
  const plan = planRun(steps, size);
  const board = ctx.board.prepare(plan.waves, plan.parts);
  const { scopes } = ctx;
  resetScopeTable(scopes, ctx.fixture.principals, operationOf(ctx.fixture).scope);
  const started = sharedClockMs();
  let found: FoundHang | undefined;
  const unwatch = watchParts(board, plan.parts, ctx.callTimeoutMs, (f) => {
    found = f;
    abortRun(board);
    ctx.servers.stop(f.part);
  });
  let replies: PoolReply[];
  try {
    replies = await Promise.all(
      Array.from({ length: plan.parts }, (_, part) =>
        ctx.servers.run(
          {
            part,
            size,
            steps,
            run: runNumber,
            handlerPath: ctx.handlerPath,
            dbPath: database.path,
            principals: ctx.fixture.principals,
            callTimeoutMs: ctx.callTimeoutMs,
          },
          board,
          scopes,
        ),
      ),
    );
  } finally {
    unwatch();
  }
  const done = new Map<number, JournalEntry>();
  const failures: JournalEntry[] = [];
  for (let part = 0; part < plan.parts; part++)
    for (const entry of readEntries(board, part)) {
      if (entry.k === 'failed') failures.push(entry);
      else done.set(key(entry.step, entry.lane), entry);
    }
  let hang: Hang | undefined;
  if (found) {
    const { step, lane } = found;
    hang = {
      step,
      lane,
      event: eventAt(steps, step, lane),
      limitMs: ctx.callTimeoutMs,
      how: 'thread',
    };
  } else throwFailure(ctx, steps, failures, replies);

  const history: HistoryEntry[] = [];
  const places: Place[] = [];
  const returnedAt: (number | undefined)[] = [];
  const observations: Observation[] = [];
  run: for (const [step, s] of steps.entries()) {
    const events = s.kind === 'concurrent' ? s.events : [s];
    for (const [lane, event] of events.entries()) {
      if (hang && step === hang.step && waveStart(lane, size) === waveStart(hang.lane, size))
        break run;
      const entry = done.get(key(step, lane));
      if (!entry) throw new Error(`no record of step ${step + 1}, lane ${lane + 1}`);
      const r = recordOperation(
        event,
        replyOf(entry),
        lane,
        entry.k === 'unsent' ? entry.at : undefined,
      );
      history.push({ ...rebase(r.entry, started), id: history.length });
      places.push({ step, lane });
      returnedAt.push(r.returnedAt === undefined ? undefined : r.returnedAt - started);
      if (event.kind === 'call' && r.observed)
        observations.push({ step, lane, event, observed: r.observed });
    }
  }
  const snapshot = snapshotOf(ctx.plugin, database.db);
  return {
    mode: 'concurrent',
    trace: { observations, snapshot },
    history,
    places,
    returnedAt,
    ...(hang ? { hang } : {}),
  };
}

/** The reply a journal entry stands for (none for a lost request). */
function replyOf(entry: JournalEntry): PoolReply | undefined {
  switch (entry.k) {
    case 'called':
      return { type: 'called', ...entry };
    case 'applied':
      return { type: 'applied', ...entry };
    default:
      return undefined;
  }
}

function key(step: number, lane: number): number {
  return step * 65_536 + lane;
}

function eventAt(steps: readonly Step[], step: number, lane: number): Event {
  const s = steps[step] as Step;
  return (s.kind === 'concurrent' ? s.events[lane] : s) as Event;
}

/** Throws the first failure of the run, in step and lane order, if any operation or part failed. */
function throwFailure(
  ctx: ConcurrentContext,
  steps: readonly Step[],
  failures: readonly JournalEntry[],
  replies: readonly PoolReply[],
): void {
  const first = [...failures].sort((a, b) => a.step - b.step || a.lane - b.lane)[0];
  if (first?.k === 'failed') {
    if (first.step < 0) throw ReceiptcheckError.fromData(first.error);
    const s = steps[first.step] as Step;
    const events = s.kind === 'concurrent' ? s.events : [s];
    const from = waveStart(first.lane, ctx.pool.size);
    const wave = events.slice(from, from + ctx.pool.size);
    const lane = wave.length > 1 || from > 0 ? ` (lane ${first.lane + 1})` : '';
    const where = `step ${first.step + 1}${lane}, ${summariseEvent(eventAt(steps, first.step, first.lane))}`;
    throw operationError(where, ctx.plugin.name, { type: 'failed', error: first.error });
  }
  const dead = replies.find((r) => r.type === 'failed');
  if (dead?.type === 'failed') throw operationError('a concurrent run', ctx.plugin.name, dead);
  if (replies.some((r) => r.type === 'ran' && r.aborted))
    throw new ReceiptcheckError(
      'E_WORKER',
      'a part of a concurrent run gave up with no cause recorded',
    );
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
