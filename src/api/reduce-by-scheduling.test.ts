/**
 * Concurrent shrinking removes the steps that do not matter, deterministically: a concurrent
 * counterexample as real threads shrank it (powertools without its policy declaration, seed 2:
 * six steps, of which only one group races) reduced in scheduled mode to that group, with the
 * failure and interleaving of its own run. No thread timing is involved: the oracle is the case
 * under a schedule. The removal loop itself is tested against fake oracles in
 * `generate/reduce-steps.test.ts`.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Step } from '../model/events.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import type { Counterexample } from '../types/results.ts';
import { loadCaseFile } from './load-case-file.ts';
import { reduceByScheduling } from './reduce-by-scheduling.ts';

describe('reduceByScheduling on a concurrent counterexample as threads shrank it', () => {
  const file = fileURLToPath(
    new URL('./fixtures/powertools-concurrent-unreduced.json', import.meta.url),
  );
  const c = loadCaseFile(file);
  // powertools without its declaration: the race the threads caught, a key reuse told keyReuse
  // beside a call that is then refused, is then owed the refusal (with it, the contract allows it).
  const undeclared = fileURLToPath(
    new URL('../handlers/libraries/fixtures/undeclared/powertools.ts', import.meta.url),
  );
  const cx: Counterexample = {
    spec: setIntervalSpec,
    handler: undeclared,
    handlerName: 'powertools-undeclared',
    mode: 'concurrent',
    seed: 2,
    path: '0',
    fixture: c.fixture,
    steps: c.steps,
    failures: [],
    runsToFailure: 1,
    shrinks: 13,
  };

  it('leaves only the racing group, with its own failure and interleaving', async () => {
    const r = await reduceByScheduling(cx);
    expect(r.error).toBeUndefined();
    expect(c.steps).toHaveLength(6);
    expect(r.counterexample.steps).toEqual([c.steps[1]]);
    expect(r.changes).toBe(5);
    expect(r.counterexample.shrinks).toBe(18);
    expect(r.counterexample.failures[0]).toMatchObject({
      kind: 'outcome',
      step: 0,
      actual: { kind: 'keyReuse' },
    });
    expect(r.counterexample.detail).toMatchObject({ mode: 'scheduled' });
  }, 60_000);

  it('keeps a counterexample with no concurrent group as it is', async () => {
    const plain = { ...cx, steps: [c.steps[0] as Step] };
    expect((await reduceByScheduling(plain)).counterexample).toBe(plain);
  });
});
