/**
 * Concurrent mode on PostgreSQL: the events of a concurrent group start together as async tasks
 * of this thread, each call on its own lane connection (its own server backend), so they really
 * overlap on the server; no worker threads. World events run on the harness connection, one at
 * a time; scope changes on the harness's scope table (`scope-gate.ts`). Returns the
 * `ConcurrentExecution` the SQLite runner returns (history with times, places, `returnedAt` for
 * lost responses), so the linearizability checker judges it unchanged.
 *
 * Crashes: SQLite's concurrent mode has none (a crash is a scheduled-mode decision), and neither
 * has this one. A group that does not finish within the call budget is a hang: the backend of
 * every operation still running is ended (`pg_terminate_backend`), which rolls back what it held
 * and frees whoever waited on its locks; the run stops there, reporting the first lane that had
 * not returned, with the history and snapshot of what happened before.
 */
import { pluginOperation } from '../../handlers/plugin.ts';
import type { PostgresHandlerPlugin } from '../../handlers/postgres/plugin.ts';
import { type Event, type Step, unsentOutcome } from '../../model/events.ts';
import type { HistoryEntry } from '../../model/history.ts';
import { leftOpen, type Observed } from '../../model/outcome.ts';
import { type Snapshot, scopedAs } from '../../model/world.ts';
import type { ConcurrentExecution } from '../../types/execution.ts';
import type { Hang } from '../../types/verdict.ts';
import { ConcurrentRecord } from '../concurrent-record.ts';
import type { ModeRunner } from '../mode-runner.ts';
import { UNREADABLE_SNAPSHOT } from '../mode-runner.ts';
import { throwIfInterrupted } from '../runtime/interrupt.ts';
import { isLocked, untilSettled } from './lock-left-behind.ts';
import {
  type Budgeted,
  pgCall,
  pgSnapshot,
  pgWorldEvent,
  withinBudget,
} from './postgres-events.ts';
import type { PostgresSession } from './postgres-session.ts';
import { ScopeGate } from './scope-gate.ts';
import { snapshotAfterHang } from './sequential-mode.ts';
import { narrow } from './session-lane.ts';
import { type PostgresModeOptions, sessionRunner } from './session-runner.ts';

/** Opens a concurrent runner for `plugin`: its template and run database are made at once. */
export function postgresConcurrentRunner(
  plugin: PostgresHandlerPlugin,
  options: PostgresModeOptions,
): Promise<ModeRunner> {
  return sessionRunner(plugin, options, (session, steps) =>
    runConcurrent(session, plugin, options, steps),
  );
}

/**
 * One operation of a group as it ended: its entry (without id) and what its call really did; or
 * that its call was stopped: it waited on a lock left behind (`lock-left-behind.ts`) and was
 * ended, or (after the group's budget, which is reported first) it never settled.
 */
type Recorded =
  | {
      readonly entry: Omit<HistoryEntry, 'id'>;
      readonly observed?: Observed;
      readonly returnedAt?: number;
    }
  | { readonly stopped: 'locked' | 'unsettled' };

async function runConcurrent(
  session: PostgresSession,
  plugin: PostgresHandlerPlugin,
  options: PostgresModeOptions,
  steps: readonly Step[],
): Promise<ConcurrentExecution> {
  const started = performance.now();
  const now = () => performance.now() - started;
  const scope = pluginOperation(plugin).scope;
  const scopes = new ScopeGate(options.fixture.principals, scope);
  const record = new ConcurrentRecord();
  const { history, places, returnedAt, observations } = record;
  let worldQueue: Promise<unknown> = Promise.resolve();
  // Lanes connect before the group starts, so no lane's start waits on a connection.
  const harness = await session.harness();
  const harnessBackend = session.harnessBackend as number;
  // The backends running plugin code now; the session's others run nothing.
  const busy = new Set<number>();
  // The lanes of the current group whose call waited on a lock left behind.
  const locked = new Set<number>();

  const operate = async (event: Event, lane: number): Promise<Recorded> => {
    if (event.kind === 'call') {
      const unsent = unsentOutcome(event);
      if (unsent) {
        const at = now();
        return {
          entry: { client: lane, event, invokedAt: at, completedAt: at, observed: unsent },
          observed: unsent,
        };
      }
      const principal = options.fixture.principals[event.client];
      if (!principal) throw new RangeError(`no principal for client ${event.client}`);
      const { client, db, backend } = await session.lane(lane);
      const invokedAt = now();
      busy.add(backend);
      const waited = await scopes
        .call(event.client, (granted) =>
          untilSettled(
            pgCall(plugin, db, scopedAs(principal, granted, scope), event),
            // The group's budget stops the call first; this bound only ends the asking.
            2 * options.callTimeoutMs,
            () => session.waitsOnIdle(backend, busy).catch(() => false),
          ),
        )
        .finally(() => busy.delete(backend));
      if (!waited.settled) {
        if (!isLocked(waited)) return { stopped: 'unsettled' };
        // Ended at once: what it held goes, so the others run on and the group ends.
        locked.add(lane);
        await session.terminateLane(lane);
        return { stopped: 'locked' };
      }
      // A transaction the handler left open is a failure of the call, and would hold its locks
      // against every other lane.
      const open = client.getTransactionStatus() !== 'I';
      const observed = open ? leftOpen(waited.value) : waited.value;
      if (open) await client.query('ROLLBACK');
      const completedAt = now();
      if (event.delivery === 'lostResponse')
        return { entry: { client: lane, event, invokedAt }, observed, returnedAt: completedAt };
      return { entry: { client: lane, event, invokedAt, completedAt, observed }, observed };
    }
    const invokedAt = now();
    if (event.kind === 'revoke' || event.kind === 'restore') {
      await scopes.change(event.client, event.kind === 'restore');
    } else {
      const applied = worldQueue.then(async () => {
        busy.add(harnessBackend);
        try {
          await pgWorldEvent(plugin, narrow(harness), event);
        } finally {
          busy.delete(harnessBackend);
        }
      });
      worldQueue = applied.catch(() => {});
      await applied;
    }
    return { entry: { client: lane, event, invokedAt, completedAt: now() } };
  };

  let hang: Hang | undefined;
  for (const [step, s] of steps.entries()) {
    throwIfInterrupted();
    const events = s.kind === 'concurrent' ? s.events : [s];
    locked.clear();
    for (const [i, e] of events.entries()) if (e.kind === 'call') await session.lane(i);
    const settled = events.map(() => false);
    const running = events.map((e, i) =>
      operate(e, i).finally(() => {
        settled[i] = true;
      }),
    );
    const all = Promise.all(running);
    const done = await withinBudget(all, options.callTimeoutMs);
    if (!done.settled || done.value.some((r) => 'stopped' in r)) {
      const stuck = events.map((_, i) => i).filter((i) => !settled[i] || stoppedAt(done, i));
      // The harness connection first: ending a lane's backend is asked for on it.
      if (stuck.some((i) => (events[i] as Event).kind !== 'call')) await session.terminateHarness();
      for (const i of stuck)
        if ((events[i] as Event).kind === 'call') await session.terminateLane(i);
      // The others end once the locks they waited on are gone; a call that waits on nothing
      // (a promise that never settles) is left behind, its connection already ended.
      await withinBudget(Promise.allSettled(running), options.callTimeoutMs);
      // A lane that waited on a lock left behind is the one to report: it is why the group hung.
      const lane = [...locked].sort((a, b) => a - b)[0] ?? stuck[0] ?? 0;
      hang = {
        step,
        lane,
        event: events[lane] as Event,
        limitMs: options.callTimeoutMs,
        how: locked.has(lane) ? 'locked' : 'unsettled',
      };
      break;
    }
    for (const [lane, r] of done.value.entries()) {
      if ('stopped' in r) continue;
      const event = events[lane] as Event;
      history.push({ ...r.entry, id: history.length });
      places.push({ step, lane });
      returnedAt.push(r.returnedAt);
      if (event.kind === 'call' && r.observed)
        observations.push({ step, lane, event, observed: r.observed });
    }
  }
  let snapshot: Snapshot;
  if (hang) snapshot = await snapshotAfterHang(session, plugin, options.callTimeoutMs);
  else {
    const read = await withinBudget(pgSnapshot(plugin, narrow(harness)), options.callTimeoutMs);
    if (read.settled) snapshot = read.value;
    else {
      await session.terminateHarness();
      hang = { step: steps.length, lane: 0, limitMs: options.callTimeoutMs, how: 'unsettled' };
      snapshot = UNREADABLE_SNAPSHOT;
    }
  }
  return record.execution(snapshot, hang);
}

/** Whether the group's operation `i` came back stopped (never settled). */
function stoppedAt(done: Budgeted<readonly Recorded[]>, i: number): boolean {
  const r = done.settled ? done.value[i] : undefined;
  return r !== undefined && 'stopped' in r;
}
