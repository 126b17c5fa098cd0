/**
 * `receiptcheck prove`: held on the reference with its counts in words (exit 0), a race
 * mutant's counterexample stating its preemptions and saved so that `replay` reproduces it
 * (exit 1) under a file named for the handler, the named scenarios as cases, and bad bounds
 * refused (exit 2).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeJson } from '../report/encode.ts';
import { proveFileName } from './commands/prove.ts';
import { runCli as cli } from './run-cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'receiptcheck-prove-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('receiptcheck prove', () => {
  it('holds on the reference and says for what (exit 0)', async () => {
    const r = await cli('prove', '--cases', '2');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /HELD for every schedule with ≤ 2 preemptions of 2 cases of ≤ 3 steps and ≤ 3 lanes \([\d,]+ schedules run, \d+ pruned\)/,
    );
  }, 60_000);

  it('shows a race mutant failing with its preemptions, saved for replay (exit 1)', async () => {
    const out = join(tmp, 'cx');
    const r = await cli('prove', '--handler', 'check-then-act', '--out', out);
    expect(r.code).toBe(1);
    expect(r.out).toContain('This schedule has 1 preemption');
    expect(r.out).toMatch(/FAILED: a schedule with 1 preemption/);
    const replay = await cli('replay', join(out, 'check-then-act-prove.json'));
    expect(replay.code).toBe(1);
    expect(replay.out).toContain('replayed exactly');
  }, 60_000);

  it('names the saved case after the handler, without a leading dash or the extension', () => {
    expect(proveFileName('check-then-act')).toBe('check-then-act-prove.json');
    expect(proveFileName('./plugin-deferred.ts')).toBe('plugin-deferred-prove.json');
    expect(proveFileName('../handlers/my.handler.mts')).toBe('handlers-my-handler-prove.json');
  });

  it('proves the named scenarios, and reports in JSON', async () => {
    const r = await cli('prove', '--scenarios', 'scenarios/article', '--json');
    expect(r.code).toBe(0);
    const report = decodeJson(r.out) as { verdict: string; cases: number; runs: number };
    expect(report.verdict).toBe('held');
    expect(report.cases).toBe(12);
    expect(report.runs).toBeGreaterThan(12);
  }, 60_000);

  it('refuses a bound out of range (exit 2)', async () => {
    const r = await cli('prove', '--preemptions', '-1');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/E_BAD_OPTION: --preemptions must be an integer from 0 to 20/);
  });

  it('has help text with its bound and its examples', async () => {
    const r = await cli('prove', '--help');
    expect(r.out).toContain('--preemptions <k>');
    expect(r.out).toContain('--no-reduction');
    expect(r.out).toContain('receiptcheck prove --handler check-then-act');
  });
});
