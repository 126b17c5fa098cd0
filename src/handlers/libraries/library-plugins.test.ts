/**
 * The library plugins end to end through `checkHandler` in sequential mode: under their declared
 * policies they pass, over sequences that exercise every event the policies are about; with the
 * declaration taken away they fail, and every failure is one the declaration explains (the
 * shrunk counterexample passes when re-checked under the declared policy).
 */

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkHandler } from '../../api/check-handler.ts';
import { judgedRunner } from '../../api/judged-runner.ts';
import { sequentialRunner } from '../../execute/sqlite/sequential-mode.ts';
import { setInterval as setIntervalSpec } from '../../model/operations/set-interval.ts';
import { resolvePolicy } from '../../model/policy.ts';
import type { FixtureWithPolicy } from '../../model/state.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import type { CoverageKind } from '../../types/coverage.ts';
import type { HandlerPlugin } from '../plugin.ts';
import expressIdempotency from './express-idempotency.ts';
import nodeIdempotency from './node-idempotency.ts';
import powertools from './powertools.ts';

const undeclared = (name: string) =>
  fileURLToPath(new URL(`./fixtures/undeclared/${name}.ts`, import.meta.url));

const LIBRARIES: [string, HandlerPlugin][] = [
  ['powertools', powertools],
  ['node-idempotency', nodeIdempotency],
  ['express-idempotency', expressIdempotency],
];

describe.each(LIBRARIES)('%s in sequential mode', (name, plugin) => {
  it.each([1, 2])('passes under its declared policy (seed %i)', async (seed) => {
    const result = await checkHandler({ handler: name, mode: 'sequential', runs: 150, seed });
    expect(result.counterexample?.failures ?? []).toEqual([]);
    expect(result.verdict).toBe('passed');
    const exercised: CoverageKind[] = [
      'move',
      'delete',
      'store fails',
      'key reuse',
      'lost response',
    ];
    for (const event of exercised) expect(result.coverage[event], event).toBeGreaterThan(0);
  });

  it('fails without its declaration, only where the declaration explains it', async () => {
    const result = await checkHandler({ handler: undeclared(name), runs: 300, seed: 1 });
    expect(result.verdict).toBe('failed');
    const c = result.counterexample;
    expect(c?.failures.some((f) => f.kind === 'outcome')).toBe(true);
    const fixture: FixtureWithPolicy = { ...DEFAULT_FIXTURE, policy: resolvePolicy(plugin.policy) };
    const declared = judgedRunner(sequentialRunner(plugin, fixture), fixture, setIntervalSpec);
    try {
      const again = await declared.execute(c?.steps ?? []);
      expect(again.verdict).toEqual({ verdict: 'ok' });
    } finally {
      await declared.close();
    }
  });
});
