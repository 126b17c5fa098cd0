/**
 * The sequential model-based property on the reference handler (it must hold over 500 generated
 * sequences with every kind of event exercised) and on handlers it must catch, with a shrunk
 * counterexample short enough to read.
 */

import { describe, expect, it } from 'vitest';
import { checkHandler } from '../src/api/check-handler.ts';
import { COVERAGE_KINDS } from '../src/types/coverage.ts';

describe('sequential check', () => {
  it('holds for the reference handler over 500 sequences, exercising every kind of event', async () => {
    const result = await checkHandler({ handler: 'reference', mode: 'sequential', runs: 500 });
    expect(result.counterexample?.failures ?? []).toEqual([]);
    expect(result.verdict).toBe('passed');
    expect(result.runs).toBe(500);
    for (const kind of COVERAGE_KINDS) expect(result.coverage[kind], kind).toBeGreaterThan(0);
  });

  it('catches a version check before the receipt lookup, shrunk to at most 4 steps', async () => {
    const result = await checkHandler({
      handler: 'src/handlers/operations/set-interval/sqlite/mutants/version-before-receipt.ts',
      mode: 'sequential',
    });
    expect(result.verdict).toBe('failed');
    expect(result.counterexample?.steps.length).toBeLessThanOrEqual(4);
    const first = result.counterexample?.failures[0];
    expect(first?.kind === 'outcome' && first.expected).toMatchObject({
      kind: 'ok',
      replayed: true,
    });
  });
});
