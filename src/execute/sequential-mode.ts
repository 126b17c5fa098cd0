/**
 * The sequential mode runner: everything in this thread, one fresh in-memory copy of the
 * template per sequence, every call under the call budget. Nothing touches the disk.
 */
import type { HandlerPlugin } from '../handlers/plugin.ts';
import type { Step } from '../model/events.ts';
import type { Fixture } from '../model/world.ts';
import type { SequentialExecution } from '../types/execution.ts';
import { CallWatch } from './call-watch.ts';
import { templateImage } from './databases.ts';
import type { ModeRunner } from './mode-runner.ts';
import { runSequential } from './run-sequential.ts';

/**
 * Creates a sequential runner for `plugin`, its calls limited to `callTimeoutMs` each (the
 * checks' default when omitted); its template database is built at once.
 */
export function sequentialRunner(
  plugin: HandlerPlugin,
  fixture: Fixture,
  callTimeoutMs = 5_000,
): ModeRunner {
  const image = templateImage(plugin, fixture);
  const watch = new CallWatch(callTimeoutMs);
  return {
    execute(steps: readonly Step[]): Promise<SequentialExecution> {
      return runSequential(plugin, image, fixture, steps, watch);
    },
    async close() {},
  };
}
