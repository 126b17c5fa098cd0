/**
 * All-findings mode on a bundled library plugin in scheduled mode (worker-thread lanes), where a
 * plain run stops at its first counterexample: powertools' F1 (a key reuse racing a claim that is
 * then withdrawn) and F2 (the completion write failing after the business write) come out as
 * distinct findings in one run over two seeds (1 and 6; the clock advances issue 16 added moved
 * them from 2 and 4), and a known-findings file listing what a run found
 * makes a run of one of those seeds pass.
 */
import { describe, expect, it } from 'vitest';
import { checkHandler } from './check-handler.ts';

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
