/**
 * Test-only: mode runners with the judge behind them, for tests that drive one mode directly
 * (with options `checkHandler` does not expose) and read verdicts and details.
 */
import { type JudgedRun, type JudgedRunner, judgedRunner } from '../src/api/judged-runner.ts';
import { loadPlugin, resolveHandlerPath } from '../src/execute/runtime/load-plugin.ts';
import {
  type ScheduledModeOptions,
  type ScheduledRunner,
  scheduledRunner,
} from '../src/execute/sqlite/scheduled/scheduled-mode.ts';
import type { Step } from '../src/model/events.ts';
import type { OperationSpec } from '../src/model/operation.ts';
import { setInterval } from '../src/model/operations/set-interval.ts';
import type { FixtureWithPolicy } from '../src/model/state.ts';
import { DEFAULT_FIXTURE } from '../src/model/world.ts';
import type { Schedule } from '../src/types/schedule.ts';

/** A judged scheduled runner that can also be handed a schedule directly. */
export interface JudgedScheduledRunner extends JudgedRunner {
  ready(): Promise<void>;
  executeScheduled(steps: readonly Step[], schedule: Schedule): Promise<JudgedRun>;
}

/** `runner` with the judge behind it, and its scheduled-mode extras kept. */
export function judgedScheduled(
  runner: ScheduledRunner,
  fixture: FixtureWithPolicy = DEFAULT_FIXTURE,
  spec: OperationSpec = setInterval,
): JudgedScheduledRunner {
  const judged = judgedRunner(runner, fixture, spec);
  return {
    ...judged,
    ready: () => runner.ready(),
    executeScheduled: (steps, schedule) => judged.execute(steps, { schedule }),
  };
}

/**
 * A judged scheduled runner for `handler` (a bundled name or a path) on the default fixture:
 * `set-interval`, a 10-second call budget and two workers unless `options` say otherwise.
 */
export async function scheduledRunnerFor(
  handler: string,
  options: Partial<ScheduledModeOptions> = {},
): Promise<JudgedScheduledRunner> {
  const path = resolveHandlerPath(handler);
  return judgedScheduled(
    await scheduledRunner(await loadPlugin(path), path, {
      spec: setInterval,
      fixture: DEFAULT_FIXTURE,
      callTimeoutMs: 10_000,
      workers: 2,
      ...options,
    }),
  );
}
