/**
 * The sequential mode runner: everything in this thread, one fresh in-memory copy of the
 * template per sequence. Nothing touches the disk.
 */
import type { HandlerPlugin } from '../handlers/plugin.ts';
import type { Step } from '../model/events.ts';
import type { Fixture } from '../model/world.ts';
import type { SequentialExecution } from '../types/execution.ts';
import { templateImage } from './databases.ts';
import type { ModeRunner } from './mode-runner.ts';
import { runSequential } from './run-sequential.ts';

/** Creates a sequential runner for `plugin`; its template database is built at once. */
export function sequentialRunner(plugin: HandlerPlugin, fixture: Fixture): ModeRunner {
  const image = templateImage(plugin, fixture);
  return {
    async execute(steps: readonly Step[]): Promise<SequentialExecution> {
      return { mode: 'sequential', trace: await runSequential(plugin, image, fixture, steps) };
    },
    async close() {},
  };
}
