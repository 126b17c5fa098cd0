/**
 * Every bundled PostgreSQL reference holds the contract through `checkHandler`, in sequential and
 * concurrent mode, on the embedded server; a handler that skips the receipt lookup does not.
 * Strings PostgreSQL `TEXT` cannot hold (a NUL byte) round-trip through the worlds.
 */
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { checkHandler } from '../../api/check-handler.ts';
import { acquirePostgres, stopEmbeddedPostgres } from '../../execute/postgres/server.ts';
import type { SetIntervalFixture } from '../../model/world.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { fromPgText, toPgText } from './pg-text.ts';

const REFERENCES = [
  'pg-reference',
  'create-once-pg-reference',
  'adjust-balance-pg-reference',
  'transfer-pg-reference',
];

describe('the PostgreSQL references', () => {
  afterAll(() => stopEmbeddedPostgres());

  for (const handler of REFERENCES)
    for (const mode of ['sequential', 'concurrent'] as const)
      it(`${handler} holds the contract in ${mode} mode`, async () => {
        const result = await checkHandler({ handler, mode, runs: 30, seed: 7 });
        expect(result.verdict).toBe('passed');
        expect(result.runs).toBe(30);
      }, 180_000);

  it('a handler that skips the receipt lookup fails', async () => {
    const handler = fileURLToPath(
      new URL('../operations/set-interval/postgres/fixtures/receipt-ignored.ts', import.meta.url),
    );
    const result = await checkHandler({ handler, mode: 'sequential', runs: 100, seed: 7 });
    expect(result.verdict).toBe('failed');
  }, 180_000);

  it('stores text with a NUL byte, which a TEXT column refuses, and reads it back', async () => {
    for (const s of ['team-a', 'a\u0000b', '\\0', '\\', 'x\\\u0000\\\\0', ''])
      expect(fromPgText(toPgText(s))).toBe(s);
    expect(toPgText('a\u0000b')).not.toContain('\u0000');
    const server = await acquirePostgres();
    const db = new pg.Client(server.connectionFor('postgres'));
    await db.connect();
    try {
      await expect(db.query('SELECT $1::text AS t', ['a\u0000b'])).rejects.toThrow(/0x00/);
    } finally {
      await db.end();
      await server.release();
    }
    const workspace = 'team\u0000a';
    const fixture: SetIntervalFixture = {
      ...DEFAULT_FIXTURE,
      automations: DEFAULT_FIXTURE.automations.map((a) =>
        a.workspace === 'team-a' ? { ...a, workspace } : a,
      ),
      principals: DEFAULT_FIXTURE.principals.map((p) =>
        p.workspace === 'team-a' ? { ...p, workspace } : p,
      ),
      workspaces: DEFAULT_FIXTURE.workspaces.map((w) => (w === 'team-a' ? workspace : w)),
    };
    const result = await checkHandler({
      handler: 'pg-reference',
      mode: 'sequential',
      runs: 30,
      fixture,
    });
    expect(result.verdict).toBe('passed');
  }, 180_000);
});
