/**
 * `receiptcheck mutants`: the catalogue listed, the kill matrix with exit 0 when every mutant is
 * killed and the reference holds (with `--html`, a timeline page per killed mutant), and exit 1
 * when `--runs 1` lets mutants survive. Sequential mutants only, to keep the suite fast;
 * properties/mutants.test.ts covers every mode.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convert } from 'xmlbuilder2';
import { threadKills } from '../api/mutant-kills.ts';
import { SET_INTERVAL_MUTANTS as MUTANT_CATALOGUE } from '../handlers/operations/set-interval/catalogue.ts';
import { decodeJson } from '../report/encode.ts';
import { runCli as cli } from './run-cli.ts';

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON and XML, held to shape by the assertions
type Loose = any;

const tmp = mkdtempSync(join(tmpdir(), 'receiptcheck-mutants-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('receiptcheck mutants', () => {
  it('--list prints every catalogued mutant with its bug and class', async () => {
    const r = await cli('mutants', '--list');
    expect(r.code).toBe(0);
    for (const m of MUTANT_CATALOGUE)
      expect(r.out).toContain(`  ${m.name} (${m.mode})\n      bug:   ${m.bug}`);
    expect(r.out).toContain('Not catalogued on purpose:\n  Fingerprint missing the tool revision');
    // Another operation's list names only its own uncatalogued bugs (create-once has none).
    const other = await cli('mutants', '--list', '--operation', 'create-once');
    expect(other.code).toBe(0);
    expect(other.out).toContain('create-once-check-then-act (scheduled)');
    expect(other.out).not.toContain('Not catalogued on purpose');
  });

  it('kills every sequential mutant, the reference holds: exit 0, matrix, JSON, JUnit and a page per kill', async () => {
    const junit = join(tmp, 'mutants.xml');
    const html = join(tmp, 'html');
    const r = await cli(
      'mutants',
      '--mode',
      'sequential',
      '--json',
      '--junit',
      junit,
      '--html',
      html,
    );
    expect(r.code).toBe(0);
    const report = decodeJson(r.out) as Loose;
    const sequential = MUTANT_CATALOGUE.filter((m) => m.mode === 'sequential');
    expect(report.summary).toMatchObject({
      verdict: 'ok',
      mutants: sequential.length,
      survivors: [],
    });
    expect(report.rows[0]).toMatchObject({ name: 'reference', status: 'held' });
    expect(r.err).toMatch(/^handler +mode +result +runs to kill +time +shrunk +scenarios$/m);
    const doc = convert(readFileSync(junit, 'utf8'), { format: 'object' }) as Loose;
    expect(doc.testsuites.testsuite['@tests']).toBe(String(sequential.length + 1));
    expect(doc.testsuites.testsuite['@failures']).toBe('0');
    // --html: one page per killed mutant, its case file beside it, both named in the JSON, the
    // page attached to the mutant's testcase; the reference, which held, has none.
    expect(Object.keys(report.timelines).sort()).toEqual(sequential.map((m) => m.name).sort());
    for (const m of sequential) {
      const page = report.timelines[m.name] as string;
      expect(page).toBe(join(html, basename(report.files[m.name]).replace(/\.json$/, '.html')));
      expect(existsSync(report.files[m.name])).toBe(true);
      const text = readFileSync(page, 'utf8');
      expect(text).toContain('class="lane"');
      expect(text).toContain(`npx receiptcheck replay ${report.files[m.name]}`);
    }
    const attached = (doc.testsuites.testsuite.testcase as Loose[]).filter((c) => c.properties);
    expect(attached).toHaveLength(sequential.length);
    expect(r.err).toContain(
      `timelines: ${sequential.length} page(s) in ${html}, one per killed mutant`,
    );
  });

  it('--runs 1 lets mutants survive: exit 1, survivors named', async () => {
    const r = await cli('mutants', '--mode', 'sequential', '--runs', '1', '--no-scenarios');
    expect(r.code).toBe(1);
    expect(r.out).toContain('SURVIVED !');
    expect(r.out).toMatch(/mutants killed; survived: /);
  });

  it('kills every race mutant in scheduled mode: exit 0', async () => {
    const r = await cli(
      'mutants',
      '--mode',
      'scheduled',
      '--no-scenarios',
      '--no-threads',
      '--json',
    );
    expect(r.code).toBe(0);
    const report = decodeJson(r.out) as Loose;
    const races = MUTANT_CATALOGUE.filter((m) => m.mode === 'scheduled');
    expect(report.summary).toMatchObject({ verdict: 'ok', mutants: races.length, survivors: [] });
    expect(report.threads).toEqual([]);
  });

  it('reports the race mutants on real threads as information, whatever timing gave', async () => {
    const threads = await threadKills({ runs: 5 });
    const races = MUTANT_CATALOGUE.filter((m) => m.mode === 'scheduled');
    expect(threads.map((t) => t.name)).toEqual(races.map((m) => m.name));
    for (const t of threads) expect(t.runs).toBeLessThanOrEqual(5);
  });
});
