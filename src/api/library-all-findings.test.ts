/**
 * All-findings mode on a bundled library plugin in scheduled mode (worker-thread lanes), where a
 * plain run stops at its first counterexample: powertools' F1 (a key reuse racing a claim that is
 * then withdrawn) and F2 (the completion write failing after the business write) come out as
 * distinct findings in one run over two seeds (1 and 6; they were 2 and 4 before clock advances
 * joined the generated sequences), and a known-findings file listing what a run found
 * makes a run of one of those seeds pass. express-idempotency's committed known-findings file
 * lists A–D (and C's crash form) by the signatures a run gives them, and with it a run of seed 3,
 * which finds D and C's crash form, passes.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkHandler } from './check-handler.ts';
import { loadKnownFindings } from './load-known-findings.ts';

const F1 = 'group(call | reuse ✗ refused→keyReuse)';
const F2 = 'call fault →error';

describe('all findings of a library in scheduled mode', () => {
  it('reports powertools F1 and F2 apart, and passes once they are known', async () => {
    const r = await checkHandler({
      handler: 'powertools',
      mode: 'scheduled',
      seeds: [1, 6],
      runs: 150,
    });
    const found = (r.findings ?? []).map((f) => `${f.rule} | ${f.shape}`);
    expect(found).toContain(`rule 7 | ${F1}`);
    expect(found).toContain(`the final database | ${F2}`);
    expect(r.verdict).toBe('failed');
    const known = { findings: (r.findings ?? []).map(({ rule, shape }) => ({ rule, shape })) };
    const again = await checkHandler({
      handler: 'powertools',
      mode: 'scheduled',
      seed: 1,
      runs: 150,
      knownFindings: known,
    });
    expect(again.verdict).toBe('passed');
    expect((again.findings ?? []).length).toBeGreaterThan(0);
    expect((again.findings ?? []).every((f) => f.known)).toBe(true);
  }, 300_000);
});

describe("express-idempotency's committed known findings (A–D)", () => {
  const file = join(
    import.meta.dirname,
    '..',
    'handlers',
    'libraries',
    'fixtures',
    'known-findings',
    'express-idempotency.json',
  );
  const D = 'a crash changes nothing | call crash ; call ✗ →in progress';

  it('list A, B, C, its crash form and D, one entry each', () => {
    const listed = loadKnownFindings(file).findings.map((f) => `${f.rule} | ${f.shape}`);
    expect(listed).toEqual([
      'rule 7 | group(call | retry ✗ replayed→error)',
      'rule 7 | group(call | reuse ✗ refused→keyReuse)',
      'the final database | call fault →fresh',
      'the final database | call crash(statement)',
      D,
    ]);
  });

  it('make a scheduled run that fails with D pass, D reported as known', async () => {
    const options = {
      handler: 'express-idempotency',
      mode: 'scheduled',
      seed: 3,
      runs: 30,
    } as const;
    const unknown = await checkHandler({ ...options, allFindings: true });
    const found = (unknown.findings ?? []).map((f) => `${f.rule} | ${f.shape}`);
    expect(found).toContain(D);
    expect(unknown.verdict).toBe('failed');
    const r = await checkHandler({ ...options, knownFindings: file });
    expect((r.findings ?? []).map((f) => `${f.rule} | ${f.shape}`)).toEqual(found);
    expect((r.findings ?? []).every((f) => f.known)).toBe(true);
    expect(r.verdict).toBe('passed');
  }, 300_000);
});
