/**
 * Exploring runs exactly the cases fast-check's own loop draws, in its order (so seeds, shards
 * and fast-check paths mean what they did), across the batches it draws them in, and stops at
 * the first failure with that run's index, a run stopped by the call budget included. The index
 * replays through fast-check's `path`, which is how the failure is handed over for shrinking.
 */
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { GeneratedCase } from '../execute/mode-runner.ts';
import { explore } from './explore.ts';
import type { JudgedRunner } from './judged-runner.ts';
import { inMode, resolveOptions } from './options.ts';
import { prepareRun } from './prepare-run.ts';

const BUSY = fileURLToPath(new URL('../execute/fixtures/busy-handler.ts', import.meta.url));
const opened: JudgedRunner[] = [];
afterAll(async () => {
  await Promise.all(opened.map((r) => r.close()));
});

async function runnerFor(
  handler: string,
  callTimeoutMs = 5_000,
  mode: 'sequential' | 'concurrent' = 'sequential',
): Promise<JudgedRunner> {
  const o = inMode(resolveOptions({ handler, mode, callTimeoutMs, workers: 2 }), mode);
  const { runner } = await prepareRun(o);
  opened.push(runner);
  return runner;
}

const OPTIONS = { stepsMax: 20, races: true, recreate: true };

describe('explore', () => {
  it("runs fast-check's own cases, in its order, across batches", async () => {
    const runner = await runnerFor('reference');
    const arbitrary = runner.caseArbitrary(OPTIONS);
    const ran: GeneratedCase[] = [];
    const explored = await explore(runner, arbitrary, {
      seed: 7,
      runs: 150,
      onRun: (c) => ran.push(c),
    });
    expect(explored).toEqual({ kind: 'held' });
    const drawn: GeneratedCase[] = [];
    fc.check(
      fc.property(arbitrary, (c) => {
        drawn.push(c);
        return true;
      }),
      { seed: 7, numRuns: 150 },
    );
    expect(ran).toHaveLength(150);
    expect(ran).toEqual(drawn);
  });

  it('stops at the first failure, whose index replays through fast-check', async () => {
    const runner = await runnerFor('version-before-receipt');
    const arbitrary = runner.caseArbitrary(OPTIONS);
    let runs = 0;
    const explored = await explore(runner, arbitrary, { seed: 42, runs: 300, onRun: () => runs++ });
    if (explored.kind !== 'failed') throw new Error(`expected a failure, got ${explored.kind}`);
    expect(runs).toBe(explored.index + 1);
    const [again] = fc.sample(arbitrary, { seed: 42, path: String(explored.index), numRuns: 1 });
    expect(again).toEqual(explored.case);
  });

  it('names the run the watchdog stopped, and the runner goes on', async () => {
    const runner = await runnerFor(BUSY, 200);
    const arbitrary = runner.caseArbitrary(OPTIONS);
    let runs = 0;
    const explored = await explore(runner, arbitrary, { seed: 42, runs: 300, onRun: () => runs++ });
    if (explored.kind !== 'failed') throw new Error(`expected a hang, got ${explored.kind}`);
    expect(explored.run.verdict).toMatchObject({ failures: [{ kind: 'hang', how: 'busy' }] });
    expect(runs).toBe(explored.index + 1);
    const next = await runner.execute([]);
    expect(next.verdict).toEqual({ verdict: 'ok' });
  });

  it('stops starting runs at the deadline', async () => {
    const runner = await runnerFor('reference');
    const explored = await explore(runner, runner.caseArbitrary(OPTIONS), {
      seed: 1,
      runs: 1_000_000,
      deadline: performance.now() + 200,
      onRun: () => {},
    });
    expect(explored).toEqual({ kind: 'timedOut' });
  });
});

// Concurrent mode starts each run while the one before is judged (`runOverlapped`): the same
// cases, in the same order, each reported once, and the first failure is still the one reported.
describe('explore, runs overlapping their judging', () => {
  it("runs fast-check's own cases, in its order, each reported once", async () => {
    const runner = await runnerFor('reference', 5_000, 'concurrent');
    expect(runner.start).toBeDefined();
    const arbitrary = runner.caseArbitrary(OPTIONS);
    const ran: GeneratedCase[] = [];
    const explored = await explore(runner, arbitrary, {
      seed: 7,
      runs: 100,
      onRun: (c) => ran.push(c),
    });
    expect(explored).toEqual({ kind: 'held' });
    expect(ran).toEqual(fc.sample(arbitrary, { seed: 7, numRuns: 100 }));
  });

  it('stops at the first failure, reported last, with the runner idle after it', async () => {
    const runner = await runnerFor('version-before-receipt', 5_000, 'concurrent');
    const arbitrary = runner.caseArbitrary(OPTIONS);
    let runs = 0;
    const explored = await explore(runner, arbitrary, { seed: 42, runs: 300, onRun: () => runs++ });
    if (explored.kind !== 'failed') throw new Error(`expected a failure, got ${explored.kind}`);
    expect(runs).toBe(explored.index + 1);
    const [again] = fc.sample(arbitrary, { seed: 42, path: String(explored.index), numRuns: 1 });
    expect(again).toEqual(explored.case);
    // The run started after the failing one was waited for: the runner takes the next one at once.
    expect((await runner.execute(explored.case.steps)).verdict.verdict).toBe('failed');
  });
});
