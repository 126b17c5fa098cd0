import { afterAll, describe, expect, it } from 'vitest';
import { judgedRunner } from '../../../api/judged-runner.ts';
import type { CallEvent, Step } from '../../../model/events.ts';
import { DEFAULT_FIXTURE } from '../../../model/world.ts';
import type { ScheduledDetail } from '../../../types/execution.ts';
import { setIntervalService } from './fixtures/set-interval-service.ts';
import { pgServiceScheduledRunner } from './service-scheduled-mode.ts';

const call = (requestId: string, version = 1, minutes = 30, client = 0): CallEvent => ({
  kind: 'call',
  client,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion: version, intervalMinutes: minutes },
});

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers) await c();
}, 60_000);

describe('scheduled mode for a service through the proxy', () => {
  it('explores', async () => {
    const raw = await pgServiceScheduledRunner(setIntervalService(true), {
      fixture: DEFAULT_FIXTURE,
      callTimeoutMs: 10_000,
    });
    closers.push(() => raw.close());
    const judged = judgedRunner(raw, DEFAULT_FIXTURE);
    const steps: Step[] = [{ kind: 'concurrent', events: [call('a'), call('a')] }];
    for (const choices of [[0], [0, 1], [1, 0], [0, 0, 1], [0, 1, 1]]) {
      const r = await judged.execute(steps, { schedule: [{ choices }] });
      const d = r.detail as ScheduledDetail;
      console.log(
        JSON.stringify(choices),
        JSON.stringify(r.verdict).slice(0, 300),
        d.entries.map((e) => `${e.lane}:${e.point}:${e.sql?.slice(0, 30)}:${e.result}`).join(' | '),
      );
    }
    expect(1).toBe(1);
  }, 120_000);
});
