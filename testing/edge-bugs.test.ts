/**
 * Off-by-ones at an operation's edges, in handlers written as a user writes them
 * (`handlers/edges/`, plugins through the public API): each is killed by the default run
 * (`receiptcheck run` defaults: 300 runs over both auto modes) on seeds 1–5. Before the
 * generators sought the precondition's edge against the state a call meets, the adjust-balance
 * overdraft off by one at zero (the debit that empties the account refused) passed every seed
 * in every mode; the other two were already caught, by the fields' limits and the stale and
 * ahead versions new intents send, and stay so. The correct handlers hold (the pair); the races
 * across the edge are in `edge-races.test.ts`.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkHandler } from '../src/api/check-handler.ts';

const handler = (name: string) =>
  fileURLToPath(new URL(`./handlers/edges/${name}.ts`, import.meta.url));

const SEEDS = [1, 2, 3, 4, 5];

describe.each([
  ['accounts-refuses-emptying-debit', 'sequential'],
  ['invoices-amount-max-exclusive', 'sequential'],
  ['automations-version-one-behind', 'sequential'],
] as const)('%s', (name, mode) => {
  it(`is killed by the default run on seeds 1–5, in ${mode} mode`, async () => {
    for (const seed of SEEDS) {
      const r = await checkHandler({ handler: handler(name), seed });
      expect(r.verdict, `seed ${seed}`).toBe('failed');
      expect(r.counterexample?.mode, `seed ${seed}`).toBe(mode);
    }
  });
});

describe.each(['accounts', 'invoices', 'automations'])('the correct %s handler', (name) => {
  it('holds in the default run', async () => {
    const r = await checkHandler({ handler: handler(name), seed: 1 });
    expect(r.counterexample?.failures ?? []).toEqual([]);
    expect(r.verdict).toBe('passed');
  });
});
