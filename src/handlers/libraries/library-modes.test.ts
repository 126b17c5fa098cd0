/**
 * The library plugins in the race-finding modes, pinned to docs/findings.md. Concurrent mode is
 * timing-dependent, so its tests accept a pass or the documented finding (A, for
 * express-idempotency) and nothing else; scheduled mode replays grant for grant, so a seed that
 * finds F2 finds it every time.
 */

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkHandler } from '../../api/check-handler.ts';
import { ROW_CHANGE_HAS_RECEIPT } from '../../check/invariants/row-change-has-receipt.ts';
import type { Failure } from '../../types/verdict.ts';

/** Whether a failure is F2: a row change left without its receipt. */
function isF2(f: Failure): boolean {
  return f.kind === 'invariant' && f.invariant === ROW_CHANGE_HAS_RECEIPT;
}

describe('concurrent mode', () => {
  it('node-idempotency passes under its declared policy', async () => {
    const result = await checkHandler({
      handler: 'node-idempotency',
      mode: 'concurrent',
      runs: 60,
      seed: 1,
    });
    expect(result.counterexample?.failures ?? []).toEqual([]);
  });

  // Seed 2 once failed with F1 (a key reuse told keyReuse beside a call that is then refused),
  // which the contract allows where claims are visible, as powertools declares.
  it('powertools passes under its declared policy', async () => {
    const result = await checkHandler({
      handler: 'powertools',
      mode: 'concurrent',
      runs: 60,
      seed: 2,
    });
    expect(result.counterexample?.failures ?? []).toEqual([]);
  });
});

// Which seed meets F2 first moves whenever generation changes (seek moves, conflicting groups and
// crashes past yield point 8 each moved it), so each handler searches with every finding kept,
// and F2 must be among them as a one-step counterexample. One seed each, the first of 1 to 9 that
// meets it within a few dozen runs: more seeds and runs only shrank more failing runs of F2.
describe.each([
  ['powertools', [3], 60],
  ['node-idempotency', [3], 50],
] as const)('%s in scheduled mode', (handler, seeds, runs) => {
  it(`finds F2 on seeds ${seeds.join(', ')}: a fault on the completion write keeps the row change`, async () => {
    const result = await checkHandler({
      handler,
      mode: 'scheduled',
      runs,
      seeds: [...seeds],
      allFindings: true,
    });
    expect(result.verdict).toBe('failed');
    const f2 = (result.findings ?? []).filter((f) => f.counterexample.failures.some(isF2));
    expect(f2.length).toBeGreaterThan(0);
    expect(f2.some((f) => f.counterexample.steps.length === 1)).toBe(true);
  }, 300_000);
});

/** D: a retry after a crash that changed nothing, refused as in progress where it should run. */
const isD = expect.objectContaining({
  kind: 'outcome',
  expected: expect.objectContaining({ kind: 'ok', replayed: false }),
  actual: { kind: 'refused', reason: 'conflict' },
});

/** express-idempotency declaring `claimExpiry: 'never'`, as a user who accepts finding D would. */
const NEVER_EXPIRES = join(
  import.meta.dirname,
  'fixtures',
  'declared',
  'express-idempotency-never-expires.ts',
);

/** Whether a failure is A: a call answered with the 500 of a lost claim race. */
function isA(f: Failure): boolean {
  const lost = (o: { kind: string; message?: string } | undefined) =>
    o?.kind === 'error' && o.message?.startsWith('UNIQUE constraint failed') === true;
  if (f.kind === 'outcome') return lost(f.actual);
  return (
    f.kind === 'linearizability' &&
    f.verdict === 'illegal' &&
    f.stuck.some((op) => lost(op.observed))
  );
}

describe('express-idempotency in concurrent mode', () => {
  it('passes or fails with A only', async () => {
    const result = await checkHandler({
      handler: 'express-idempotency',
      mode: 'concurrent',
      runs: 60,
      seed: 4,
    });
    // A reuse told keyReuse while racing a claim that is then withdrawn (once finding B) is
    // allowed under the declared inFlightDuplicate, so it no longer fails a run.
    const failures = result.counterexample?.failures ?? [];
    expect(failures.filter((f) => !isA(f))).toEqual([]);
  });
});

describe('express-idempotency in scheduled mode (docs/findings.md, A, C, D)', () => {
  it('finds C at seed 2: a fault on the after-send store keeps the row change', async () => {
    const result = await checkHandler({
      handler: 'express-idempotency',
      mode: 'scheduled',
      runs: 20,
      seed: 2,
    });
    expect(result.counterexample?.steps).toHaveLength(1);
    expect(result.counterexample?.failures.some(isF2)).toBe(true);
  });

  // D needs a crash after the claim and a later call under the key; since crashes also land past
  // yield point 8, a seed meets it less often. Seed 5 meets it within 60 runs (seed 3, searched
  // before, found only A and C, whose shrinking took most of the time); both checks use it.
  it("finds D; with claimExpiry: 'never' declared, the same seed finds C and never D", async () => {
    const options = { mode: 'scheduled', runs: 60, seeds: [5], allFindings: true } as const;
    const failures = (r: Awaited<ReturnType<typeof checkHandler>>) =>
      (r.findings ?? []).flatMap((f) => f.counterexample.failures);
    const bundled = await checkHandler({ handler: 'express-idempotency', ...options });
    expect(failures(bundled)).toContainEqual(isD);
    const declared = await checkHandler({ handler: NEVER_EXPIRES, ...options });
    expect(failures(declared)).not.toContainEqual(isD);
    expect(failures(declared).some(isF2)).toBe(true);
  }, 300_000);
});
