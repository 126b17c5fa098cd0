/**
 * powertools on its PostgreSQL persistence layer shows what it shows on SQLite (docs/findings.md):
 * F2 is the library's finding, not the store's; the key reuse told `keyReuse` beside a call that
 * is then refused, once reported as F1, is the contract's allowed answer and is kept as a
 * regression case. Each committed case is a scheduled PostgreSQL run that replays exactly; the
 * reference holds each one.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCaseFile } from '../../../api/load-case-file.ts';
import { runCase } from '../../../api/run-case.ts';
import { stopEmbeddedPostgres } from '../../../execute/postgres/server.ts';

const fixture = (name: string) =>
  loadCaseFile(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)));
/** `powertools-pg` without its policy declaration (the contract as written). */
const UNDECLARED = fileURLToPath(
  new URL('./fixtures/powertools-pg-undeclared.ts', import.meta.url),
);

describe('powertools on PostgreSQL: the SQLite cases, store for store', () => {
  afterAll(() => stopEmbeddedPostgres());

  it('F1 (retired): a reuse told keyReuse beside a call that is then refused holds as declared', async () => {
    const c = fixture('f1-reuse-racing-refused-call.json');
    const r = await runCase(c);
    expect(r.verdict).toBe('passed');
    // The race happened: the owner was refused and stored nothing, the reuse met its claim.
    const told = r.trace.observations.map((o) => o.observed);
    expect(told).toEqual([{ kind: 'refused', reason: 'unavailable' }, { kind: 'keyReuse' }]);
    expect(r.trace.snapshot.receipts).toEqual([]);
    // Without the declaration a running call shows no claim: the reuse is owed the refusal.
    const undeclared = await runCase(c, { handler: UNDECLARED });
    expect(undeclared.verdict).toBe('failed');
    expect(undeclared.failures[0]).toMatchObject({
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
