/**
 * The generic handler, built from a spec alone, holds each built-in operation's contract as its
 * reference does (sequential and scheduled mode): the same handler the drawn-spec guard builds
 * for drawn specs, held to specs whose references are known good. And one that checks the
 * precondition before the receipt lookup fails, so the pass means something. Under a declared
 * `storesRefusals` it holds too, and one that declares it without storing fails.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkHandler } from '../../api/check-handler.ts';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}.ts`, import.meta.url));

describe('the generic SQLite handler on the built-in operations', () => {
  for (const name of ['set-interval', 'create-once', 'adjust-balance'])
    for (const mode of ['sequential', 'scheduled'] as const)
      it(`holds ${name} in ${mode} mode`, async () => {
        const r = await checkHandler({ handler: fixture(`generic-${name}`), mode, runs: 60 });
        expect(r.counterexample?.failures ?? []).toEqual([]);
        expect(r.verdict).toBe('passed');
      });

  it('holds create-once with opaque ids, scrambled by the server, in sequential mode', async () => {
    const r = await checkHandler({
      handler: fixture('generic-create-once-opaque'),
      mode: 'sequential',
      runs: 100,
    });
    expect(r.counterexample?.failures ?? []).toEqual([]);
    expect(r.verdict).toBe('passed');
  });

  it('fails when broken: the version checked before the receipt lookup', async () => {
    const r = await checkHandler({
      handler: fixture('generic-set-interval-precondition-first'),
      mode: 'sequential',
      runs: 100,
    });
    expect(r.verdict).toBe('failed');
    expect(r.counterexample?.failures[0]).toMatchObject({
      kind: 'outcome',
      expected: { kind: 'ok', replayed: true },
    });
  });

  for (const mode of ['sequential', 'scheduled', 'concurrent'] as const)
    it(`holds set-interval with stored refusals declared, in ${mode} mode`, async () => {
      const r = await checkHandler({
        handler: fixture('generic-set-interval-stores-refusals'),
        mode,
        runs: mode === 'concurrent' ? 20 : 150,
      });
      expect(r.counterexample?.failures ?? []).toEqual([]);
      expect(r.verdict).toBe('passed');
    });

  it('fails when it declares stored refusals and stores none', async () => {
    const r = await checkHandler({
      handler: fixture('generic-set-interval-forgets-refusals'),
      mode: 'sequential',
      runs: 150,
    });
    expect(r.verdict).toBe('failed');
  });
});
