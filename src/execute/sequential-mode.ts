/**
 * The sequential mode runner: everything in this thread, one fresh database file per sequence.
 */
import { checkRun } from '../check/check-run.ts';
import type { HandlerPlugin } from '../handlers/plugin.ts';
import type { Step } from '../model/events.ts';
import type { Fixture } from '../model/world.ts';
import { DatabaseFiles } from './databases.ts';
import type { ExecutedRun, ModeRunner } from './mode-runner.ts';
import { runSequential } from './run-sequential.ts';

/** Creates a sequential runner for `plugin`; its template database is built at once. */
export function sequentialRunner(plugin: HandlerPlugin, fixture: Fixture): ModeRunner {
  const files = new DatabaseFiles(plugin, fixture);
  return {
    async execute(steps: readonly Step[]): Promise<ExecutedRun> {
      const trace = await runSequential(plugin, files, fixture, steps);
      return { verdict: checkRun({ fixture, steps, trace }), trace };
    },
    async close() {
      files.dispose();
    },
  };
}
