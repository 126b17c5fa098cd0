/**
 * The sequential mode runner: everything in this thread, one fresh in-memory copy of the
 * template per sequence. Nothing touches the disk.
 */
import { checkRun } from '../check/check-run.ts';
import type { HandlerPlugin } from '../handlers/plugin.ts';
import type { Step } from '../model/events.ts';
import type { Fixture } from '../model/world.ts';
import { templateImage } from './databases.ts';
import type { ExecutedRun, ModeRunner } from './mode-runner.ts';
import { runSequential } from './run-sequential.ts';

/** Creates a sequential runner for `plugin`; its template database is built at once. */
export function sequentialRunner(plugin: HandlerPlugin, fixture: Fixture): ModeRunner {
  const image = templateImage(plugin, fixture);
  return {
    async execute(steps: readonly Step[]): Promise<ExecutedRun> {
      const trace = await runSequential(plugin, image, fixture, steps);
      return { verdict: checkRun({ fixture, steps, trace }), trace };
    },
    async close() {},
  };
}
