/**
 * The step-removal pass after shrinking, in the deterministic modes: steps that do not matter go
 * (an unrelated delete, a move, a store fault), what the failure needs stays, and a scheduled
 * case keeps each remaining step's own schedule entry. A passing case is never "reduced".
 */
import { describe, expect, it } from 'vitest';
import { sequentialRunner } from '../execute/sqlite/sequential-mode.ts';
import mutant from '../handlers/operations/set-interval/sqlite/mutants/replay-from-current-row.ts';
import notFlagged from '../handlers/operations/set-interval/sqlite/mutants/replay-not-flagged.ts';
import reference from '../handlers/operations/set-interval/sqlite/set-interval-reference.ts';
import type { HandlerPlugin } from '../handlers/plugin.ts';
import type { CallEvent, Step } from '../model/events.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import { judgedRunner } from './judged-runner.ts';
import { reduceInMode } from './reduce-in-mode.ts';

const call = (requestId: string, expectedVersion: number): CallEvent => ({
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion, intervalMinutes: 5 },
});
/** A replay read from the current row shows after r0, r1, then r0 again; the rest is noise. */
const steps: Step[] = [
  { kind: 'delete', resourceId: 2 },
  call('r0', 1),
  { kind: 'storeFail' },
  { kind: 'storeRestore' },
  call('r1', 2),
  { kind: 'move', resourceId: 3, workspace: 'team-b' },
  call('r0', 1),
];

/** `sequence` (the noisy one by default) on `plugin` in sequential mode: its run, and what is left. */
async function reduce(
  plugin: HandlerPlugin,
  replay?: Readonly<Record<string, unknown>>,
  sequence: Step[] = steps,
) {
  const runner = judgedRunner(
    sequentialRunner(plugin, DEFAULT_FIXTURE),
    DEFAULT_FIXTURE,
    setIntervalSpec,
  );
  try {
    const failed = await runner.execute(sequence);
    return { failed, reduced: await reduceInMode(runner, sequence, replay, failed) };
  } finally {
    await runner.close();
  }
}

describe('reduceInMode', () => {
  it('removes every step the failure does not need, and reports the run of what is left', async () => {
    const { failed, reduced } = await reduce(mutant);
    expect(failed.verdict.verdict).toBe('failed');
    expect(reduced?.steps).toEqual([call('r0', 1), call('r1', 2), call('r0', 1)]);
    expect(reduced?.changes).toBe(4);
    expect(reduced?.run.verdict.verdict).toBe('failed');
    expect(reduced?.replay).toBeUndefined();
  });

  it('takes each removed step’s schedule entry with it', async () => {
    const schedule = steps.map((_, i) => ({ choices: [i] }));
    const { reduced } = await reduce(mutant, { schedule });
    expect(reduced?.replay).toEqual({
      schedule: [{ choices: [1] }, { choices: [4] }, { choices: [6] }],
    });
  });

  it('splits a group the failure does not need as a race into plain steps', async () => {
    // A call and its retry drawn as a group, as fast-check leaves them: sequential mode runs a
    // group in lane order, so the pair never raced, and the mutant fails on them as plain steps.
    const retry: CallEvent = { ...call('r0', 1), intent: 'retry' };
    const grouped: Step[] = [{ kind: 'concurrent', events: [call('r0', 1), retry] }];
    const { failed, reduced } = await reduce(notFlagged, undefined, grouped);
    expect(failed.verdict.verdict).toBe('failed');
    expect(reduced?.steps).toEqual([call('r0', 1), retry]);
    expect(reduced?.changes).toBe(1);
    expect(reduced?.run.verdict.verdict).toBe('failed');
  });

  it('leaves a passing case alone', async () => {
    const { failed, reduced } = await reduce(reference);
    expect(failed.verdict.verdict).toBe('ok');
    expect(reduced).toBeUndefined();
  });
});
