/**
 * Every input class family is necessary: for each handler in `testing/handlers/input-bugs/`, a
 * real way of mishandling one kind of input, `checkHandler` at default settings (sequential
 * mode, 300 runs, seed 42) fails, and the same check passes once the classes the handler's
 * `CAUGHT_BY` names are left out of the generators, so nothing else the generators send catches
 * it. Two catalogue mutants show the same for the principal classes that make key scoping
 * matter. The reference passes with every class in play, in every mode.
 *
 * Before the input classes (commit fb9af72), 13 of these 20 handlers passed at default settings
 * and 12 still passed at 2,000 runs: the generators sent only `r<n>` as valid request ids, no
 * valid extreme numbers, few look-alikes, and the fixture had no principal whose user or
 * workspace differs only in case, or whose scopes are unusual.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkHandler } from '../src/api/check-handler.ts';
import type { InputClass } from '../src/types/input-coverage.ts';
import type { Mode } from '../src/types/mode.ts';

const DIR = fileURLToPath(new URL('./handlers/input-bugs/', import.meta.url));
const HELPERS = ['define-input-bug.ts', 'request-id-rule.ts'];
const BUGS = readdirSync(DIR)
  .filter((f) => f.endsWith('.ts') && !HELPERS.includes(f))
  .map((f) => [f.replace(/\.ts$/, ''), `${DIR}${f}`] as const);

/** Catalogue mutants caught only by a principal class the default fixture adds to. */
const MUTANTS: readonly (readonly [string, readonly InputClass[]])[] = [
  ['key-without-user', ['principal another user in the same workspace']],
  ['key-without-workspace', ['principal same user in another workspace']],
];

describe.each(BUGS)('input bug %s', (_name, handler) => {
  it('fails at default settings, and passes once the classes that catch it are left out', async () => {
    const { CAUGHT_BY } = (await import(handler)) as { CAUGHT_BY: readonly InputClass[] };
    const caught = await checkHandler({ handler });
    expect(caught.verdict).toBe('failed');
    expect(caught.counterexample?.steps.length).toBeLessThanOrEqual(4);
    const without = await checkHandler({ handler, excludeInputClasses: CAUGHT_BY });
    expect(without.counterexample?.failures ?? []).toEqual([]);
    expect(without.verdict).toBe('passed');
    for (const c of CAUGHT_BY) expect(without.inputCoverage[c], c).toBe(0);
  });
});

describe.each(MUTANTS)('mutant %s', (handler, classes) => {
  it('is caught only by its principal class', async () => {
    expect((await checkHandler({ handler })).verdict).toBe('failed');
    const without = await checkHandler({ handler, excludeInputClasses: classes });
    expect(without.verdict).toBe('passed');
  });
});

describe('excludeInputClasses', () => {
  it('must name input classes of the operation checked', async () => {
    await expect(
      checkHandler({ excludeInputClasses: ['requestId length 99'] }),
    ).rejects.toMatchObject({
      code: 'E_BAD_OPTION',
      message: expect.stringContaining('no input class of set-interval: "requestId length 99"'),
    });
    // Another operation's field class is not set-interval's.
    await expect(checkHandler({ excludeInputClasses: ['memo left out'] })).rejects.toMatchObject({
      code: 'E_BAD_OPTION',
      message: expect.stringContaining('"memo left out"'),
    });
  });
});

describe('the reference', () => {
  it.each(['sequential', 'scheduled', 'concurrent'] as Mode[])(
    'passes in %s mode with every input class reached',
    async (mode) => {
      const r = await checkHandler({ mode, runs: 200 });
      expect(r.counterexample?.failures ?? []).toEqual([]);
      expect(r.verdict).toBe('passed');
      expect(Object.values(r.inputCoverage).filter((n) => n === 0)).toEqual([]);
    },
  );
});
