/**
 * Scheduled mode keeps its connections from run to run (the coordinator's and each lane's), so a
 * run must get them as newly opened ones are: what plugin code left on a connection (a temporary
 * table, a setting, an attached database, a busy timeout) would otherwise meet the next run, which
 * a replay from a fresh start never sees. The fixture's call fails when it finds any of those.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type JudgedScheduledRunner,
  scheduledRunnerFor,
} from '../../../../testing/judged-runners.ts';
import type { CallEvent, Step } from '../../../model/events.ts';
import type { LaneMode } from '../../../types/mode.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/connection-state.ts', import.meta.url));

const opened: JudgedScheduledRunner[] = [];
afterAll(async () => {
  await Promise.all(opened.map((r) => r.close()));
});

async function runner(lanes: LaneMode): Promise<JudgedScheduledRunner> {
  const r = await scheduledRunnerFor(FIXTURE, { lanes });
  opened.push(r);
  return r;
}

const call = (requestId: string, client: number): CallEvent => ({
  kind: 'call',
  client,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
});

const PLAIN: Step[] = [call('a', 0)];
/** A yield point of client 0's call after it left its state (its own reads and settings, then the reference's BEGIN). */
const CRASH_AT = 8;
const GROUP: Step[] = [{ kind: 'concurrent', events: [call('a', 0), call('b', 1)] }];

describe('a scheduled run gets its connections as new', () => {
  it.each([
    ['a plain step, on the coordinator', 'threads', PLAIN],
    ['a concurrent group, on each lane', 'threads', GROUP],
    ['a concurrent group, on each lane', 'inline', GROUP],
    ['a busy timeout, on the coordinator', 'threads', [call('busy', 0)]],
    [
      'a busy timeout, on each lane',
      'inline',
      [{ kind: 'concurrent', events: [call('busy', 0), call('b', 1)] }] as Step[],
    ],
  ] as const)('for %s (%s lanes)', async (_, lanes, steps) => {
    const r = await runner(lanes);
    for (let run = 1; run <= 3; run++) {
      const judged = await r.executeScheduled(steps, [{ choices: [] }]);
      expect(judged.verdict, `run ${run}`).toEqual({ verdict: 'ok' });
    }
  });
});

describe('a lane crashed in a run', () => {
  // Client 0's calls on lane 0 in two groups: the second meets what the first left on the lane's
  // connection, unless a crash ended that connection in between.
  const TWICE: Step[] = [GROUP[0] as Step, GROUP[0] as Step];
  const kept = (r: Awaited<ReturnType<JudgedScheduledRunner['executeScheduled']>>) =>
    JSON.stringify(r.verdict).includes('the connection kept');

  it.each(['threads', 'inline'] as const)(
    'gives the lane a new connection for its next call (%s lanes)',
    async (lanes) => {
      const r = await runner(lanes);
      const plain = await r.executeScheduled(TWICE, [{ choices: [] }, { choices: [] }]);
      expect(kept(plain)).toBe(true);
      const crashed = await r.executeScheduled(TWICE, [
        { choices: [], crash: { lane: 0, at: CRASH_AT } },
        { choices: [] },
      ]);
      expect(kept(crashed)).toBe(false);
    },
  );
});
