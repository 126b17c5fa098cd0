/**
 * End to end: an operation spec whose fields come from a zod schema (`fixtures/zod-adjust-balance-spec.ts`)
 * checks a SQLite handler that implements it: the handler that validates with the same spec
 * passes, and the one that skips the schema's currency check is caught (the pair).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkHandler } from '../../api/check-handler.ts';
import { formatCounterexample } from '../../report/format-counterexample.ts';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

describe('checkHandler on a handler whose operation spec comes from a zod schema', () => {
  it('passes the handler that validates with the zod-derived spec', async () => {
    const result = await checkHandler({
      handler: fixture('zod-adjust-balance.ts'),
      mode: 'sequential',
      runs: 50,
      seed: 1,
    });
    expect(result.verdict, JSON.stringify(result.counterexample?.failures)).toBe('passed');
  });

  it('catches the handler that skips the currency check the schema makes', async () => {
    const result = await checkHandler({
      handler: fixture('zod-adjust-balance-lax.ts'),
      mode: 'sequential',
      runs: 50,
      seed: 1,
    });
    expect(result.verdict).toBe('failed');
    expect(JSON.stringify(result.counterexample)).toContain('currency');
  });

  it('passes the handler that copes with an optional field left out', async () => {
    const result = await checkHandler({
      handler: fixture('zod-memo.ts'),
      mode: 'sequential',
      runs: 50,
      seed: 1,
    });
    expect(result.verdict, JSON.stringify(result.counterexample?.failures)).toBe('passed');
  });

  it('catches the handler that reads an optional field as if every client sent it', async () => {
    const result = await checkHandler({
      handler: fixture('zod-memo-required.ts'),
      mode: 'sequential',
      runs: 50,
      seed: 1,
    });
    expect(result.verdict).toBe('failed');
    expect(JSON.stringify(result.counterexample)).toContain("reading 'trim'");
    const counterexample = result.counterexample;
    if (!counterexample) throw new Error('no counterexample');
    expect(formatCounterexample(counterexample)).toContain('memo left out');
  });

  it('counts the optional field left out as an input class, the one that catches the handler', async () => {
    const options = { handler: fixture('zod-memo-required.ts'), mode: 'sequential' } as const;
    const passing = await checkHandler({ ...options, handler: fixture('zod-memo.ts') });
    expect(passing.verdict).toBe('passed');
    expect(passing.inputCoverage['memo left out']).toBeGreaterThan(0);
    const without = await checkHandler({ ...options, excludeInputClasses: ['memo left out'] });
    expect(without.verdict, JSON.stringify(without.counterexample?.failures)).toBe('passed');
    expect(without.inputCoverage['memo left out']).toBe(0);
  });
});
