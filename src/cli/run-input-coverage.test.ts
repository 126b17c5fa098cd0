/**
 * `receiptcheck run` reports input class coverage: counts per class in the summary, every class
 * in `--json`, and a warning line for each class a passing run never reached.
 */
import { describe, expect, it } from 'vitest';
import { decodeJson } from '../report/encode.ts';
import { INPUT_CLASSES } from '../types/input-coverage.ts';
import { runCli as cli } from './run-cli.ts';

describe('receiptcheck run: input classes', () => {
  it('a default run lists the calls per class and warns about none', async () => {
    const r = await cli('run');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ {2}inputs {4}requestId +length 1 \d+ · length 36 \d+/m);
    expect(r.out).toMatch(/^ {12}principal +.*another user in the same workspace \d+/m);
    expect(r.out).toMatch(/user differs only in case \d+/);
    expect(r.out).not.toContain('warning');
  });

  it('--json carries a count for every class', async () => {
    const r = await cli('run', '--runs', '20', '--json');
    const report = decodeJson(r.out) as { inputCoverage: Record<string, number> };
    expect(Object.keys(report.inputCoverage)).toEqual([...INPUT_CLASSES]);
    expect(report.inputCoverage['expectedVersion 1']).toBeGreaterThan(0);
  });

  it('a run too short to reach every class says which it missed', async () => {
    const r = await cli('run', '--runs', '2');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ {2}warning {3}input class never reached: requestId \S/m);
    expect(r.out).toMatch(/^ {2}warning {3}\d+ more input classes never reached/m);
  });
});
