/**
 * Small builders shared by the concurrent-mode tests: a runner for a bundled handler or a
 * plugin path, and calls written the way the article writes them.
 */
import type { CallEvent, Step } from '../../model/events.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { loadPlugin, resolveHandlerPath } from '../load-plugin.ts';
import type { ModeRunner } from '../mode-runner.ts';
import { concurrentRunner } from './concurrent-mode.ts';

/** A concurrent runner on the default fixture. */
export async function runnerFor(
  handler: string,
  options: { workers?: number; callTimeoutMs?: number } = {},
): Promise<ModeRunner> {
  const path = resolveHandlerPath(handler);
  return concurrentRunner(await loadPlugin(path), path, {
    fixture: DEFAULT_FIXTURE,
    workers: options.workers ?? 4,
    callTimeoutMs: options.callTimeoutMs ?? 5_000,
  });
}

/** A delivered call by client 0 (alice@team-a) expecting version 1, unless told otherwise. */
export function call(
  requestId: string,
  automationId: number,
  intervalMinutes: number,
  more: Partial<Pick<CallEvent, 'client' | 'delivery'>> & { expectedVersion?: number } = {},
): CallEvent {
  return {
    kind: 'call',
    client: more.client ?? 0,
    delivery: more.delivery ?? 'delivered',
    request: {
      requestId,
      automationId,
      expectedVersion: more.expectedVersion ?? 1,
      intervalMinutes,
    },
  };
}

/** A concurrent group. */
export function together(...events: CallEvent[]): Step {
  return { kind: 'concurrent', events };
}
