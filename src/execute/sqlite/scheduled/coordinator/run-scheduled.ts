/**
 * Scheduled execution of one sequence on a fresh database. A concurrent group runs gated under
 * its schedule entry (`step-coordinator.ts`), and so does a plain call whose entry plans a crash
 * or a fault, which needs the yield points. Every other plain step has nothing to decide, so the
 * coordinator runs it itself (`plain-steps.ts`). Scope changes are the coordinator's own. Each run
 * starts from the template (`shared-database.ts`), and the coordinator's connection reads the
 * final snapshot.
 *
 * The run is one task (`task.ts`) under the call budget (`call-watch.ts`): with inline lanes and
 * a synchronous handler it is one watched stretch. A lane or plain step that hangs ends the run
 * there, `hang` set; every lane is then stopped and the coordinator's connection replaced, so the
 * next run (a shrink) starts clean.
 */

import { isReceiptcheckError } from '../../../../errors.ts';
import type { HandlerPlugin } from '../../../../handlers/plugin.ts';
import type { Step } from '../../../../model/events.ts';
import type { OperationSpec } from '../../../../model/operation.ts';
import type { Fixture, Snapshot } from '../../../../model/world.ts';
import type { ScheduledExecution } from '../../../../types/execution.ts';
import type { Schedule } from '../../../../types/schedule.ts';
import type { LaneRecord } from '../../../../types/scheduled-trace.ts';
import type { Hang } from '../../../../types/verdict.ts';
import { watchedSnapshot } from '../../../apply-event.ts';
import { type RunAttempt, UNREADABLE_SNAPSHOT } from '../../../mode-runner.ts';
import type { CallWatch } from '../../../runtime/call-watch.ts';
import { type Task, wait } from '../../../runtime/task.ts';
import { runGatedStep } from '../../../schedule/gated-step.ts';
import { runSteps as runScheduledSteps, type StepsPort } from '../../../schedule/run-steps.ts';
import type { SharedDatabase } from '../../shared-database.ts';
import type { Lanes } from '../lanes.ts';
import { LanesDriver } from './lanes-driver.ts';
import type { PlainSteps } from './plain-steps.ts';
import { applyScopeChange, type StepContext, storeScopes } from './step-context.ts';

/** What a scheduled run needs besides the sequence and its schedule. */
export interface RunContext {
  readonly plugin: HandlerPlugin;
  readonly database: SharedDatabase;
  /** Runs plain steps on the coordinator's connection to `database`. */
  readonly plain: PlainSteps;
  /** The call budget for plugin code on this thread. */
  readonly watch: CallWatch;
  /** Worker threads, or inline lanes for a replayable handler. */
  readonly lanes: Lanes;
  readonly fixture: Fixture;
  /** The operation the run checks, as `prepareRun` resolved it. */
  readonly spec: OperationSpec;
  readonly callTimeoutMs: number;
  readonly grantsMax: number;
  readonly crashMode: 'connection' | 'thread';
  readonly runAheadMax: number;
}

/** What a scheduled run does beyond its steps: recovery after a hang, the move to threads. */
export interface AttemptHooks {
  /** After a hang: replace what the stopped code may have left half done (the coordinator's connection). */
  recover(): void;
  /**
   * A handler declared replayable turned out not to be: moves the lanes to threads and resolves
   * when they are up, or answers undefined when the runner may not (its lanes were forced inline).
   */
  fallBack(): Promise<void> | undefined;
}

/**
 * Runs `steps` under `schedule`, as an attempt (`mode-runner.ts`): one task, synchronous while
 * lanes run inline and no promise is met. On any error every lane is stopped, so the next run
 * starts clean; after a hang, `hooks.recover` also replaces the coordinator's connection.
 */
export function scheduledAttempt(
  ctx: RunContext,
  steps: readonly Step[],
  schedule: Schedule,
  hooks: AttemptHooks,
  recordDecisions = false,
): RunAttempt {
  const lanes: LaneRecord[] = [];
  let run = begin(ctx, lanes, recordDecisions);
  const finished = (snapshot: Snapshot, hang?: Hang): ScheduledExecution => ({
    mode: 'scheduled',
    schedule,
    lanes,
    entries: run.entries,
    snapshot,
    ...(hang ? { hang } : {}),
    ...(run.decisions ? { decisions: run.decisions } : {}),
  });
  const task = function* (): Task<ScheduledExecution> {
    try {
      return finished(yield* runSteps(ctx, run, steps, schedule, lanes));
    } catch (thrown) {
      yield* wait(ctx.lanes.closeAll());
      const moving = isNotReplayable(thrown) ? hooks.fallBack() : undefined;
      if (!moving) throw thrown;
      yield* wait(moving);
      run = begin(ctx, lanes, recordDecisions);
      return finished(yield* runSteps(ctx, run, steps, schedule, lanes));
    }
  };
  return {
    task: task(),
    async afterHang(hang) {
      await ctx.lanes.closeAll();
      hooks.recover();
      return finished(await snapshotAfterHang(ctx, steps.length), hang);
    },
    close() {},
  };
}

/** A run's fresh start: the database reset to the template, the scopes stored, no records yet. */
function begin(ctx: RunContext, lanes: LaneRecord[], recordDecisions: boolean): StepContext {
  ctx.database.reset();
  ctx.plain.startRun(ctx.database.db);
  ctx.lanes.startRun?.();
  lanes.length = 0;
  const run: StepContext = {
    lanes: ctx.lanes,
    dbPath: ctx.database.path,
    principals: ctx.fixture.principals,
    operation: ctx.spec,
    entries: [],
    callTimeoutMs: ctx.callTimeoutMs,
    watch: ctx.watch,
    grantsMax: ctx.grantsMax,
    crashMode: ctx.crashMode,
    runAheadMax: ctx.runAheadMax,
    ...(recordDecisions ? { decisions: [] } : {}),
  };
  storeScopes(run);
  return run;
}

function isNotReplayable(thrown: unknown): boolean {
  return isReceiptcheckError(thrown) && thrown.code === 'E_NOT_REPLAYABLE';
}

function* runSteps(
  ctx: RunContext,
  run: StepContext,
  steps: readonly Step[],
  schedule: Schedule,
  lanes: LaneRecord[],
): Task<Snapshot> {
  yield* runScheduledSteps(stepsPort(ctx, run), steps, schedule, lanes);
  return yield* watchedSnapshot(ctx.watch, steps.length, ctx.plugin, ctx.database.db);
}

/** SQLite's steps for the shared step loop: gated ones on the lanes, plain ones on the coordinator's connection. */
function stepsPort(ctx: RunContext, run: StepContext): StepsPort {
  const { plain } = ctx;
  return {
    entries: run.entries,
    principals: () => run.principals,
    noun: run.operation.noun,
    gated: (step, events, plan) =>
      runGatedStep(run, new LanesDriver(run, step), step, events, plan),
    applyScope: (client, granted) => applyScopeChange(run, client, granted),
    call: (step, principal, event) =>
      plain.call(run.watch, { step, lane: 0, event }, principal, event),
    world: (step, event) => plain.world(run.watch, { step, lane: 0, event }, event),
  };
}

/** The database after a hang, every lane stopped (so rolled back); unreadable if the snapshot hangs too. */
async function snapshotAfterHang(ctx: RunContext, after: number): Promise<Snapshot> {
  try {
    return await ctx.watch.run(watchedSnapshot(ctx.watch, after, ctx.plugin, ctx.database.db));
  } catch {
    return UNREADABLE_SNAPSHOT;
  }
}
