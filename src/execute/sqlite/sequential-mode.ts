/**
 * The sequential mode runner: everything in this thread, each sequence on an in-memory database
 * holding exactly the template (one copy kept and reset between sequences, `memory-copies.ts`),
 * every call under the call budget. Nothing touches the disk.
 */
import type { HandlerPlugin } from '../../handlers/plugin.ts';
import type { Step } from '../../model/events.ts';
import type { Fixture } from '../../model/world.ts';
import { type ModeRunner, runAttempt } from '../mode-runner.ts';
import { CallWatch } from '../runtime/call-watch.ts';
import { templateImage } from './databases.ts';
import { MemoryCopies } from './memory-copies.ts';
import { sequentialAttempt } from './run-sequential.ts';

/**
 * Creates a sequential runner for `plugin`, its calls limited to `callTimeoutMs` each (the
 * checks' default when omitted); its template database is built at once.
 */
export function sequentialRunner(
  plugin: HandlerPlugin,
  fixture: Fixture,
  callTimeoutMs = 5_000,
): ModeRunner {
  const copies = new MemoryCopies(templateImage(plugin, fixture));
  const watch = new CallWatch(callTimeoutMs);
  const attempt = (steps: readonly Step[]) =>
    sequentialAttempt(plugin, copies, fixture, steps, watch);
  return {
    watch,
    attempt,
    execute: (steps) => runAttempt(attempt(steps), watch),
    async close() {
      copies.close();
    },
  };
}
