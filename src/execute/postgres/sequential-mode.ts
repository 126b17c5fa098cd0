/**
 * Sequential mode on PostgreSQL: each call on its lane's connection (a plain step's on lane 1's;
 * a concurrent group's events one after another, each on its own lane's, as concurrent mode runs
 * them at once), the harness connection for world events and the snapshot, the run database reset
 * between runs (`run-database.ts`). So what a handler leaves on its connection past its call (a
 * session-level advisory lock it never releases) meets the next call that comes on another, as
 * it would from a pool. It returns the `SequentialExecution` the SQLite runner returns, so
 * `check/` judges it unchanged.
 *
 * Every plugin function is awaited under the call budget: a call that does not settle (blocked on
 * a lock, waiting on nothing) is a hang; one that waits on a lock another of its connections
 * holds, idle, is a hang at once (`lock-left-behind.ts`): nothing else runs to release it. Its backend is ended (`pg_terminate_backend`), which
 * rolls back what it held; the run stops there with `hang` set, and the snapshot is the database
 * as that left it, read on the harness connection (`UNREADABLE_SNAPSHOT` when that hangs too).
 * (A handler that loops synchronously between two queries is not stopped: the event loop never
 * turns. SQLite's sequential mode has the same limit for code after awaiting a timer or a socket.)
 */
import { pluginOperation } from '../../handlers/plugin.ts';
import type { PostgresHandlerPlugin } from '../../handlers/postgres/plugin.ts';
import type { Step } from '../../model/events.ts';
import { flatten } from '../../model/flatten.ts';
import { leftOpen } from '../../model/outcome.ts';
import { afterScopeChange, type Principal, type Snapshot } from '../../model/world.ts';
import type { SequentialExecution } from '../../types/execution.ts';
import type { Observation } from '../../types/trace.ts';
import type { Hang } from '../../types/verdict.ts';
import type { ModeRunner } from '../mode-runner.ts';
import { UNREADABLE_SNAPSHOT } from '../mode-runner.ts';
import { isLocked, untilSettled } from './lock-left-behind.ts';
import { pgCall, pgSnapshot, pgWorldEvent, withinBudget } from './postgres-events.ts';
import type { PostgresSession } from './postgres-session.ts';
import { narrow } from './session-lane.ts';
import { type PostgresModeOptions, sessionRunner } from './session-runner.ts';

/** Opens a sequential runner for `plugin`: its template and run database are made at once. */
export function postgresSequentialRunner(
  plugin: PostgresHandlerPlugin,
  options: PostgresModeOptions,
): Promise<ModeRunner> {
  return sessionRunner(plugin, options, (session, steps) =>
    runSequential(session, plugin, options, steps),
  );
}

async function runSequential(
  session: PostgresSession,
  plugin: PostgresHandlerPlugin,
  options: PostgresModeOptions,
  steps: readonly Step[],
): Promise<SequentialExecution> {
  const limitMs = options.callTimeoutMs;
  const observations: Observation[] = [];
  let principals: readonly Principal[] = options.fixture.principals;
  const hangAt = async (hang: Hang): Promise<SequentialExecution> => ({
    mode: 'sequential',
    trace: { observations, snapshot: await snapshotAfterHang(session, plugin, limitMs) },
    hang,
  });
  for (const { event, step, lane } of flatten(steps)) {
    if (event.kind === 'call') {
      const principal = principals[event.client];
      if (!principal)
        throw new RangeError(`step ${step + 1}: no principal for client ${event.client}`);
      const { client, db, backend } = await session.lane(lane);
      const done = await untilSettled(pgCall(plugin, db, principal, event), limitMs, () =>
        session.waitsOnIdle(backend, new Set([backend])).catch(() => false),
      );
      if (!done.settled) {
        await session.terminateLane(lane);
        return hangAt({ step, lane, event, limitMs, how: isLocked(done) ? 'locked' : 'unsettled' });
      }
      // A transaction the handler left open is a failure of the call; rolled back, it swallows
      // no later event, nor blocks one.
      const open = client.getTransactionStatus() !== 'I';
      observations.push({ step, lane, event, observed: open ? leftOpen(done.value) : done.value });
      if (open) await client.query('ROLLBACK');
    } else if (event.kind === 'revoke' || event.kind === 'restore') {
      principals = afterScopeChange(principals, event, pluginOperation(plugin).scope);
    } else {
      const harness = await session.harness();
      const busy = new Set([session.harnessBackend as number]);
      const done = await untilSettled(pgWorldEvent(plugin, narrow(harness), event), limitMs, () =>
        session.waitsOnIdle(session.harnessBackend as number, busy).catch(() => false),
      );
      if (!done.settled) {
        await session.terminateHarness();
        return hangAt({ step, lane, event, limitMs, how: isLocked(done) ? 'locked' : 'unsettled' });
      }
      if (harness.getTransactionStatus() !== 'I') await harness.query('ROLLBACK');
    }
  }
  const harness = await session.harness();
  const read = await withinBudget(pgSnapshot(plugin, narrow(harness)), limitMs);
  if (!read.settled) {
    await session.terminateHarness();
    return hangAt({ step: steps.length, lane: 0, limitMs, how: 'unsettled' });
  }
  return { mode: 'sequential', trace: { observations, snapshot: read.value } };
}

/** The database as a hang left it (the hung backend ended), read under the budget. */
export async function snapshotAfterHang(
  session: PostgresSession,
  plugin: PostgresHandlerPlugin,
  limitMs: number,
): Promise<Snapshot> {
  try {
    const harness = await session.harness();
    const read = await withinBudget(pgSnapshot(plugin, narrow(harness)), limitMs);
    if (read.settled) return read.value;
    await session.terminateHarness();
  } catch {
    // The snapshot failed on what the hang left: nothing to read.
  }
  return UNREADABLE_SNAPSHOT;
}
