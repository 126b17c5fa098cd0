/**
 * `receiptcheck scenarios`: the article's cases pass on the reference and catch a mutant, and a
 * counterexample copied into a scenarios folder becomes a failing regression scenario.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeJson } from '../report/encode.ts';
import { runCli as cli } from './run-cli.ts';

const MUTANT = 'src/handlers/operations/set-interval/sqlite/mutants/version-before-receipt.ts';
const tmp = mkdtempSync(join(tmpdir(), 'receiptcheck-scenarios-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('receiptcheck scenarios', () => {
  it("passes the article's cases on the reference (exit 0)", async () => {
    const r = await cli('scenarios', '--dir', 'scenarios/article');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/✓ 02-lost-response-replays: passes against reference/);
    expect(r.out).toMatch(/(\d+) of \1 case files passed/);
  });

  it('fails them on a mutant given with --handler (exit 1), with readable steps', async () => {
    const r = await cli('scenarios', '--dir', 'scenarios/article', '--handler', MUTANT, '--json');
    expect(r.code).toBe(1);
    const report = decodeJson(r.out) as {
      failed: number;
      cases: { name: string; verdict: string }[];
    };
    expect(report.failed).toBeGreaterThan(0);
    expect(report.cases.find((c) => c.name === '02-lost-response-replays')?.verdict).toBe('failed');
  });

  it('runs a copied counterexample against the handler it names', async () => {
    const out = join(tmp, 'cx');
    expect((await cli('run', '--handler', MUTANT, '--out', out)).code).toBe(1);
    const dir = join(tmp, 'scenarios');
    mkdirSync(dir);
    const [file] = readdirSync(out).filter((f) => f.endsWith('.json'));
    copyFileSync(join(out, file as string), join(dir, file as string));
    const r = await cli('scenarios', '--dir', dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`fails against ${MUTANT}`);
    expect((await cli('scenarios', '--dir', dir, '--handler', 'reference')).code).toBe(0);
  });
});
