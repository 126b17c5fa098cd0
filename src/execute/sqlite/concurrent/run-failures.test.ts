/**
 * A world event that throws stops the concurrent run with an error naming its step, and its lane
 * when it stood in a group; the other workers of the run stop with it (the board is aborted), and
 * the next run goes on as usual on the same workers. A run whose replies (with what the handler
 * printed) outgrow a worker's journal still runs to the end.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, runnerFor } from '../../../../testing/concurrent-runners.ts';
import type { JudgedRunner } from '../../../api/judged-runner.ts';
import type { Event } from '../../../model/events.ts';
import { UNMOVABLE_AUTOMATION } from './fixtures/move-throws-handler.ts';

const MOVE_THROWS = fileURLToPath(new URL('./fixtures/move-throws-handler.ts', import.meta.url));
const CHATTY = fileURLToPath(new URL('./fixtures/chatty-handler.ts', import.meta.url));
const pinned: Event = { kind: 'move', resourceId: UNMOVABLE_AUTOMATION, workspace: 'team-b' };

describe('a failing operation in concurrent mode', () => {
  let runner: JudgedRunner;
  beforeAll(async () => {
    runner = await runnerFor(MOVE_THROWS, { workers: 3 });
  });
  afterAll(() => runner.close());

  it('names its step among plain steps', async () => {
    const steps = [call('r0', 1, 30), pinned, call('r1', 1, 45)];
    await expect(runner.execute(steps)).rejects.toThrow(
      /^step 2, world event .*"move".*: handler "move-throws": the world event move threw: automation 3 is pinned$/,
    );
  });

  it('names its step and lane in a group, and stops the run there', async () => {
    const group = {
      kind: 'concurrent',
      events: [call('r2', 1, 30), pinned, call('r3', 2, 30)],
    } as const;
    await expect(runner.execute([call('r0', 1, 30), group, call('r1', 1, 45)])).rejects.toThrow(
      /^step 2 \(lane 2\), world event .*automation 3 is pinned$/,
    );
  });

  it('leaves the workers ready for the next run', async () => {
    const group = { kind: 'concurrent', events: [call('r2', 1, 30), call('r3', 2, 30)] } as const;
    const run = await runner.execute([call('r0', 1, 30), group, call('r1', 1, 45)]);
    expect(run.verdict).toEqual({ verdict: 'ok' });
  });
});

describe('a run whose replies outgrow the journal', () => {
  let runner: JudgedRunner;
  beforeAll(async () => {
    runner = await runnerFor(CHATTY, { workers: 2 });
  });
  afterAll(() => runner.close());

  it('keeps every reply, without what was printed in the journal copy', async () => {
    // 20 calls on worker 0, each reply carrying 4,000 characters of output: 80 KB, over 64 KB.
    const steps = Array.from({ length: 20 }, (_, i) => call(`r${i}`, 1, 30 + i));
    const run = await runner.execute(steps);
    expect(run.verdict).toEqual({ verdict: 'ok' });
    expect(run.detail?.mode === 'concurrent' ? run.detail.history.length : 0).toBe(20);
  });
});
