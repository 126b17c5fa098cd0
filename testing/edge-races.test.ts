/**
 * Races across an operation's edge, in handlers written as a user writes them
 * (`handlers/edges/`, plugins through the public API): each is killed by the default run
 * (`receiptcheck run` defaults: 300 runs, two thirds of them in scheduled mode) on seeds 1–5,
 * in scheduled mode, where the statement scheduler opens the race deterministically. Before
 * groups sought a conflict and scheduled mode had the larger share, the adjust-balance
 * overdraft checked on a balance read before the write transaction was missed by the default
 * run on three seeds of five, and the answer re-read after COMMIT (an ORM's refresh) on two,
 * though `--mode scheduled` found each within 300 runs. The correct handler's pair is in
 * `edge-bugs.test.ts`.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkHandler } from '../src/api/check-handler.ts';

const handler = (name: string) =>
  fileURLToPath(new URL(`./handlers/edges/${name}.ts`, import.meta.url));

const SEEDS = [1, 2, 3, 4, 5];

describe.each([
  ['accounts-stale-overdraft-check', 'scheduled'],
  ['accounts-refresh-after-commit', 'scheduled'],
] as const)('%s', (name, mode) => {
  it(`is killed by the default run on seeds 1–5, in ${mode} mode`, async () => {
    for (const seed of SEEDS) {
      const r = await checkHandler({ handler: handler(name), seed });
      expect(r.verdict, `seed ${seed}`).toBe('failed');
      expect(r.counterexample?.mode, `seed ${seed}`).toBe(mode);
    }
  });
});
