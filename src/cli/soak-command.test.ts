/**
 * `receiptcheck soak`: the reference holds (exit 0, the counts in JSON on stdout, the summary on
 * stderr), a replay bug is caught in the long history (exit 1, the linearizability failure named
 * with its rule; its whole history and a page of its failing partition are written), and a bad flag is a usage error (exit 2). Runs are bounded by an operation
 * count, with a duration far beyond it, so the machine's speed decides nothing.
 */

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { decodeJson } from '../report/encode.ts';
import type { SoakResult } from '../types/results.ts';
import { runCli as cli } from './run-cli.ts';

describe('receiptcheck soak', () => {
  it('passes the reference: exit 0, the result as JSON, the summary on stderr', async () => {
    const r = await cli(
      'soak',
      '--clients',
      '4',
      '--duration',
      '120',
      '--operations-max',
      '400',
      '--seed',
      '3',
      '--json',
    );
    expect(r.code).toBe(0);
    const result = decodeJson(r.out) as SoakResult;
    expect(result).toMatchObject({ verdict: 'passed', clients: 4, seed: 3, failures: [] });
    expect(result.counts.calls).toBeGreaterThan(100);
    expect(r.err).toMatch(/verdict {5}PASSED/);
  });

  it('with --json, names the history file and the page it wrote', async () => {
    const out = mkdtempSync(join(tmpdir(), 'rc-soak-json-'));
    onTestFinished(() => rmSync(out, { recursive: true, force: true }));
    const r = await cli(
      'soak',
      '--handler',
      'replay-not-flagged',
      '--clients',
      '4',
      '--duration',
      '120',
      '--operations-max',
      '300',
      '--seed',
      '1',
      '--out',
      out,
      '--json',
    );
    expect(r.code).toBe(1);
    const report = decodeJson(r.out) as { historyFile: string; timeline: string };
    expect(report.historyFile).toBe(join(out, 'soak-replay-not-flagged-seed1.json'));
    expect(report.timeline).toBe(join(out, 'soak-replay-not-flagged-seed1.html'));
    expect(existsSync(report.historyFile) && existsSync(report.timeline)).toBe(true);
  });

  it('catches a replay bug in the long history: exit 1, the rule it broke, the history and its page saved', async () => {
    const out = mkdtempSync(join(tmpdir(), 'rc-soak-'));
    onTestFinished(() => rmSync(out, { recursive: true, force: true }));
    const r = await cli(
      'soak',
      '--handler',
      'replay-not-flagged',
      '--clients',
      '4',
      '--duration',
      '120',
      '--operations-max',
      '300',
      '--seed',
      '1',
      '--out',
      out,
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/verdict {5}FAILED/);
    expect(r.out).toMatch(/match no serial order consistent with real time/);
    const history = join(out, 'soak-replay-not-flagged-seed1.json');
    const page = join(out, 'soak-replay-not-flagged-seed1.html');
    expect(r.out).toContain(history);
    expect(r.out).toContain(`timeline: ${page}`);
    expect(readFileSync(page, 'utf8')).toContain('the failing partition');
    expect(
      (decodeJson(readFileSync(history, 'utf8')) as SoakResult).history?.length,
    ).toBeGreaterThan(0);
  });

  it('refuses a bad flag value with exit 2', async () => {
    const r = await cli('soak', '--duration', 'soon');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/E_BAD_OPTION: .*--duration/);
  });
});
