/**
 * The scheduled mode runner: lane workers that park at every statement, a coordinator that
 * grants them one at a time in the order a drawn schedule says, one fresh database per sequence,
 * and a record of every grant and every lane's end for the judge (`check/check-scheduled-run.ts`). The schedule is drawn together with the steps
 * (`caseArbitrary`), so fast-check shrinks both, and it is stored in the run's detail, so a saved
 * counterexample replays grant for grant (same trace hash). Create once per check, `close()` when
 * done: the database goes, and the workers wait a few seconds for the next runner of the same
 * handler (`lane-workers.ts`), so consecutive checks do not each pay for starting threads.
 */

import type fc from 'fast-check';
import { ReceiptcheckError } from '../../../errors.ts';
import {
  type ScheduleOptions,
  scheduledCaseArbitrary,
} from '../../../generate/schedule-arbitrary.ts';
import type { SequenceOptions } from '../../../generate/sequence-arbitrary.ts';
import type { HandlerPlugin } from '../../../handlers/plugin.ts';
import type { Step } from '../../../model/events.ts';
import type { OperationSpec } from '../../../model/operation.ts';
import type { Fixture } from '../../../model/world.ts';
import { RECORD_DECISIONS, type ScheduledExecution } from '../../../types/execution.ts';
import type { LaneMode } from '../../../types/mode.ts';
import type { Schedule } from '../../../types/schedule.ts';
import { type GeneratedCase, type ModeRunner, runAttempt } from '../../mode-runner.ts';
import { CallWatch } from '../../runtime/call-watch.ts';
import { onInterrupt } from '../../runtime/interrupt.ts';
import { scheduleOfCase } from '../../schedule/schedule-of-case.ts';
import { SharedDatabase } from '../shared-database.ts';
import { PlainSteps } from './coordinator/plain-steps.ts';
import { scheduledAttempt } from './coordinator/run-scheduled.ts';
import { LaneChoice } from './lane-choice.ts';
import { withTemplateFile } from './template-file.ts';

/** What scheduled mode needs; the first three come from the resolved check options. */
export interface ScheduledModeOptions {
  readonly fixture: Fixture;
  /** The operation the run checks, as `prepareRun` resolved it. */
  readonly spec: OperationSpec;
  /** Lane workers started with the runner: lane 0 before it returns, the rest in the background (a wider group starts more). Default 4. */
  readonly workers?: number;
  /** Longest wait for one lane's next statement or reply, in ms, before the call counts as hung. */
  readonly callTimeoutMs: number;
  /**
   * How a planned crash kills a lane. `connection` (default): the lane's connection is rolled
   * back at the yield point, which is what SQLite sees when a process dies (locks released),
   * and nothing more from that call reaches the database; the worker thread lives on, so a crash
   * costs nothing. `thread`: the worker thread is terminated (`worker.terminate()`), so in-memory
   * state of the plugin dies too; a new worker (about a quarter second with tsx) replaces it.
   * Use `thread` for plugins that keep state in memory.
   */
  readonly crashMode?: 'connection' | 'thread';
  /**
   * Most yield points a worker may pass without parking when the schedule would grant them to it
   * anyway (the trace is the same either way; 0 parks at every point). Default 10,000.
   */
  readonly runAheadMax?: number;
  /**
   * How lanes are carried out. `auto` (default): inline on this thread for a handler declared
   * `replayable` (with `connection` crashes), else worker threads. `inline` and `threads` force one.
   */
  readonly lanes?: LaneMode;
  /** Grants per step before the step is a livelock. Default 20,000. */
  readonly grantsMax?: number;
  /** How schedules are drawn (crash and fault rates, choices per step). */
  readonly schedule?: ScheduleOptions;
}

/** A scheduled-mode runner: a `ModeRunner` that draws its own cases. */
export interface ScheduledRunner extends ModeRunner {
  caseArbitrary(options: SequenceOptions): fc.Arbitrary<GeneratedCase>;
  /** Resolves once every lane started with the runner is up (for timing runs without start-up). */
  ready(): Promise<void>;
  /** Runs `steps` under `schedule` directly (`execute` reads the schedule from `replay`). */
  executeScheduled(steps: readonly Step[], schedule: Schedule): Promise<ScheduledExecution>;
}

/** Starts the workers and builds the template database; throws `E_WORKER` if a worker cannot load the plugin. */
export async function scheduledRunner(
  plugin: HandlerPlugin,
  handlerPath: string,
  options: ScheduledModeOptions,
): Promise<ScheduledRunner> {
  let database = withTemplateFile(plugin, options.fixture, (path) => new SharedDatabase(path));
  const crashMode = options.crashMode ?? 'connection';
  let choice: LaneChoice;
  try {
    choice = await LaneChoice.open(plugin, handlerPath, options.fixture.principals.length, {
      mode: options.lanes ?? 'auto',
      crashMode,
      workers: options.workers ?? 4,
    });
  } catch (thrown) {
    database.dispose();
    throw thrown;
  }
  const untrack = onInterrupt(() => close());
  let closed: Promise<void> | undefined;
  let plain = new PlainSteps(plugin, database.db);
  /** `reuse`: lend worker threads to the next runner of this handler (a normal close). */
  const close = (reuse = false) => {
    closed ??= (async () => {
      try {
        await choice.close(reuse);
      } finally {
        database.dispose();
        untrack();
      }
    })();
    return closed;
  };
  /** After a hang: a fresh database and coordinator connection, the old ones may be mid-statement. */
  const recover = () => {
    database = database.replace();
    plain = new PlainSteps(plugin, database.db);
  };
  const ctx = {
    plugin,
    get database() {
      return database;
    },
    get plain() {
      return plain;
    },
    get lanes() {
      return choice.lanes;
    },
    fixture: options.fixture,
    spec: options.spec,
    callTimeoutMs: options.callTimeoutMs,
    watch: new CallWatch(options.callTimeoutMs),
    grantsMax: options.grantsMax ?? 20_000,
    crashMode,
    runAheadMax: options.runAheadMax ?? 10_000,
  };
  /** Runs inline when it can; a handler that turns out not to be replayable starts over on threads. */
  const hooks = {
    recover,
    fallBack: () => (choice.mayFallBack ? choice.useThreads() : undefined),
  };
  const attempt = (steps: readonly Step[], schedule: Schedule, record = false) => {
    if (closed) throw new ReceiptcheckError('E_WORKER', 'this scheduled runner is closed');
    return scheduledAttempt(ctx, steps, schedule, hooks, record);
  };
  const executeScheduled = async (
    steps: readonly Step[],
    schedule: Schedule,
  ): Promise<ScheduledExecution> =>
    (await runAttempt(attempt(steps, schedule), ctx.watch)) as ScheduledExecution;
  // Schedules this runner drew itself are well formed: only one from elsewhere (a case file) is
  // parsed, which cost a generated run about as much as deciding its grants.
  const drawn = new WeakSet<Schedule>();
  const scheduleOf = (replay: Readonly<Record<string, unknown>> | undefined): Schedule => {
    const own = replay?.schedule as Schedule | undefined;
    return own && drawn.has(own) ? own : (scheduleOfCase(replay) ?? []);
  };
  return {
    caseArbitrary(sequence) {
      return scheduledCaseArbitrary(options.fixture, { ...sequence, ...options.schedule }).map(
        ({ steps, schedule }) => {
          drawn.add(schedule);
          return { steps, replay: { schedule } };
        },
      );
    },
    execute: async (steps, replay) =>
      (await runAttempt(
        attempt(steps, scheduleOf(replay), replay?.[RECORD_DECISIONS] === true),
        ctx.watch,
      )) as ScheduledExecution,
    attempt: (steps, replay) =>
      attempt(steps, scheduleOf(replay), replay?.[RECORD_DECISIONS] === true),
    watch: ctx.watch,
    executeScheduled,
    ready: () => choice.ready(),
    close: () => close(true),
  };
}
