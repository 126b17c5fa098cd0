/**
 * powertools on its PostgreSQL persistence layer shows the findings it shows on SQLite
 * (docs/findings.md, F1 and F2): they are the library's, not the store's. Each committed case is
 * a scheduled PostgreSQL counterexample that replays exactly; the reference holds each one.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCaseFile } from '../../../api/load-case-file.ts';
import { runCase } from '../../../api/run-case.ts';
import { stopEmbeddedPostgres } from '../../../execute/postgres/server.ts';

const fixture = (name: string) =>
  loadCaseFile(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)));

describe('powertools on PostgreSQL: the SQLite findings, store for store', () => {
  afterAll(() => stopEmbeddedPostgres());

  it('F1: a reuse racing a call that is then refused is told keyReuse', async () => {
    const c = fixture('f1-reuse-racing-refused-call.json');
    const r = await runCase(c);
    expect(r.verdict).toBe('failed');
    expect(r.failures[0]).toMatchObject({
      kind: 'outcome',
      expected: { kind: 'refused', reason: 'unavailable' },
      actual: { kind: 'keyReuse' },
    });
    expect((await runCase(c, { handler: 'pg-reference' })).verdict).toBe('passed');
  }, 120_000);

  it('F2: the store failing after the business commit keeps the write and drops the receipt', async () => {
    const c = fixture('f2-store-fails-after-claim.json');
    const r = await runCase(c);
    expect(r.verdict).toBe('failed');
    expect(r.failures.map((f) => f.kind)).toContain('invariant');
    expect((await runCase(c, { handler: 'pg-reference' })).verdict).toBe('passed');
  }, 120_000);
});
