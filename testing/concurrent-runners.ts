/**
 * Test-only builders shared by the concurrent-mode tests: a runner for a bundled handler or a
 * plugin path, and calls written the way the article writes them.
 */

import { type JudgedRunner, judgedRunner } from '../src/api/judged-runner.ts';
import { loadPlugin, resolveHandlerPath } from '../src/execute/runtime/load-plugin.ts';
import { concurrentRunner } from '../src/execute/sqlite/concurrent/concurrent-mode.ts';
import type { CallEvent, Step } from '../src/model/events.ts';
import { setInterval } from '../src/model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../src/model/world.ts';

/** A concurrent runner on the default fixture, with the judge behind it. */
export async function runnerFor(
  handler: string,
  options: { workers?: number; callTimeoutMs?: number } = {},
): Promise<JudgedRunner> {
  const path = resolveHandlerPath(handler);
  const runner = await concurrentRunner(await loadPlugin(path), path, {
    fixture: DEFAULT_FIXTURE,
    spec: setInterval,
    workers: options.workers ?? 4,
    callTimeoutMs: options.callTimeoutMs ?? 5_000,
  });
  return judgedRunner(runner, DEFAULT_FIXTURE, setInterval);
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
