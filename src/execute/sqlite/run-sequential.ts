/**
 * Sequential mode: runs one sequence in this thread on one fresh database, event after event
 * (a concurrent group runs in lane order), and records a `Trace`. Fast and deterministic; the
 * race-finding modes live beside it. Every plugin call runs under the call budget
 * (`call-watch.ts`): a run of a synchronous handler is one watched stretch, and a call that loops
 * or never settles stops the run as a hang.
 */

import type { Connection, HandlerPlugin } from '../../handlers/plugin.ts';
import { pluginOperation } from '../../handlers/plugin.ts';
import { type Event, type Step, unsentOutcome } from '../../model/events.ts';
import { leftOpen, type Observed } from '../../model/outcome.ts';
import {
  afterScopeChange,
  type Fixture,
  type Principal,
  type Snapshot,
} from '../../model/world.ts';
import type { SequentialExecution } from '../../types/execution.ts';
import type { Observation } from '../../types/trace.ts';
import { beginCall, settleCall, watchedSnapshot } from '../apply-event.ts';
import { watchedWorldEvent } from '../apply-world-event.ts';
import { type RunAttempt, UNREADABLE_SNAPSHOT } from '../mode-runner.ts';
import type { CallWatch } from '../runtime/call-watch.ts';
import { FRESH_STRETCH, type Task } from '../runtime/task.ts';
import { runConnection } from './concurrent/run-connection.ts';
import { rollbackLeaked } from './databases.ts';
import type { MemoryCopies } from './memory-copies.ts';

/**
 * Runs `steps` against `plugin` on an in-memory database holding the template (`copies`: a copy
 * kept from the last sequence and reset to the template's rows, or a fresh copy deserialised
 * from its bytes). One connection cannot tell it from a file copy, and it costs a fraction of a
 * file copy, an open, the WAL set-up, a close and three unlinks. Concurrent and scheduled modes,
 * whose connections must share a database, keep files. A hang ends the run with `hang` set and
 * what ran before it; the database it ran on is then closed, never reused.
 */
export function sequentialAttempt(
  plugin: HandlerPlugin,
  copies: MemoryCopies,
  fixture: Fixture,
  steps: readonly Step[],
  watch: CallWatch,
): RunAttempt {
  const lease = copies.lease();
  // A plugin that may keep state per connection object gets one of this sequence's own.
  const db = lease.reused && !plugin.replayable ? runConnection(lease.db) : lease.db;
  const run = new SequentialRun(plugin, db, fixture, steps, watch);
  return {
    task: run.task(),
    async afterHang(hang) {
      const snapshot = await snapshotAfterHang(plugin, db, steps.length, watch);
      return { mode: 'sequential', trace: { observations: run.observations, snapshot }, hang };
    },
    close: () => lease.release(run.ended),
  };
}

/**
 * One sequence's execution: its steps in order, groups in lane order (as `flatten` walks them,
 * without building that list), then the snapshot. A class with one generator method rather than
 * closures over locals: it runs once per sequence.
 */
class SequentialRun {
  readonly observations: Observation[] = [];
  /** Set when every step and the snapshot ran (the copy may then be kept). */
  ended = false;
  private principals: readonly Principal[];

  constructor(
    private readonly plugin: HandlerPlugin,
    private readonly db: Connection,
    fixture: Fixture,
    private readonly steps: readonly Step[],
    private readonly watch: CallWatch,
  ) {
    this.principals = fixture.principals;
  }

  *task(): Task<SequentialExecution> {
    const { steps, plugin, db, watch } = this;
    for (let step = 0; step < steps.length; step++) {
      const s = steps[step] as Step;
      const lanes = s.kind === 'concurrent' ? s.events.length : 1;
      for (let lane = 0; lane < lanes; lane++) {
        const event = s.kind === 'concurrent' ? (s.events[lane] as Event) : s;
        if (event.kind === 'call') {
          const principal = this.principals[event.client];
          if (!principal)
            throw new RangeError(`step ${step + 1}: no principal for client ${event.client}`);
          // `watchedCall` spelled out, so a call makes no generator unless it returns a promise.
          let observed: Observed | undefined = unsentOutcome(event);
          if (!observed) {
            const activity = { step, lane, event };
            if (!watch.tryBegin(activity)) {
              yield FRESH_STRETCH;
              watch.begin(activity);
            }
            const begun = beginCall(watch, plugin, db, principal, event);
            const answered: Observed =
              begun instanceof Promise ? yield* settleCall(watch, activity, plugin, begun) : begun;
            // A transaction the handler left open is a failure of the call; rolled back, it
            // swallows no later event.
            observed = db.inTransaction ? leftOpen(answered) : answered;
            rollbackLeaked(db);
          }
          this.observations.push({ step, lane, event, observed });
        } else if (event.kind === 'revoke' || event.kind === 'restore') {
          this.principals = afterScopeChange(this.principals, event, pluginOperation(plugin).scope);
        } else {
          // A handler that left a transaction open must not swallow the world event into it.
          rollbackLeaked(db);
          yield* watchedWorldEvent(watch, { step, lane, event }, plugin, db, event);
        }
      }
    }
    rollbackLeaked(db);
    const snapshot = yield* watchedSnapshot(watch, steps.length, plugin, db);
    this.ended = true;
    return { mode: 'sequential', trace: { observations: this.observations, snapshot } };
  }
}

/**
 * The database as a hung call left it, its transaction rolled back, read under the budget too;
 * `UNREADABLE_SNAPSHOT` when that fails (the call was stopped mid-statement, or the snapshot hangs).
 */
async function snapshotAfterHang(
  plugin: HandlerPlugin,
  db: Connection,
  after: number,
  watch: CallWatch,
): Promise<Snapshot> {
  try {
    rollbackLeaked(db);
    return await watch.run(watchedSnapshot(watch, after, plugin, db));
  } catch {
    return UNREADABLE_SNAPSHOT;
  }
}
