/**
 * The command line's edges, each of which once gave a silent or wrong answer: an empty seed
 * variable taken as seed 0, shards that ran more than --runs, a --steps-max silently capped, a
 * run of no steps called a pass, no JUnit file when the check could not finish, a time limit that
 * turned a short run into a pass, help that listed bench twice and hid soak, a soak failure with
 * no history to open.
 */

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveOptions } from '../api/options.ts';
import { sequenceArbitrary } from '../generate/sequence-arbitrary.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import { emptyCoverage } from '../report/coverage.ts';
import { decodeJson } from '../report/encode.ts';
import { formatSummary } from '../report/format-summary.ts';
import { emptyInputCoverage } from '../report/input-coverage.ts';
import type { CheckResult } from '../types/results.ts';
import { runCli as cli } from './run-cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'receiptcheck-edges-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the seed', () => {
  it('an empty RECEIPTCHECK_SEED is refused, not taken as seed 0', () => {
    for (const value of ['', '  '])
      expect(() => resolveOptions({}, { RECEIPTCHECK_SEED: value })).toThrow(
        /seed must be an integer \(got an empty RECEIPTCHECK_SEED\)/,
      );
  });
});

describe('shards', () => {
  it('split --runs exactly: 10 runs in 4 shards are 10 runs in all', async () => {
    let total = 0;
    for (let i = 1; i <= 4; i++) {
      const r = await cli(
        'run',
        '--runs',
        '10',
        '--shard',
        `${i}/4`,
        '--mode',
        'sequential',
        '--json',
      );
      expect(r.code).toBe(0);
      total += (decodeJson(r.out) as { runs: number }).runs;
    }
    expect(total).toBe(10);
  });
});

describe('--steps-max', () => {
  it('reaches sequences longer than 100 steps when asked for them', () => {
    const lengths = fc.sample(
      sequenceArbitrary(DEFAULT_FIXTURE, {
        spec: setIntervalSpec,
        stepsMax: 400,
        races: true,
        recreate: false,
      }),
      { numRuns: 200, seed: 1 },
    );
    expect(Math.max(...lengths.map((s) => s.length))).toBeGreaterThan(100);
  });

  it('past its limit is a usage error that says what to use instead', async () => {
    const r = await cli('run', '--steps-max', '100000', '--runs', '1');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/E_BAD_OPTION: stepsMax must be at most 1000 .*receiptcheck soak/);
  });

  it('a run in which no step ran says that nothing was checked', () => {
    const r: CheckResult = {
      verdict: 'passed',
      handler: 'reference',
      handlerName: 'reference',
      mode: 'sequential',
      modes: ['sequential'],
      seed: 42,
      shard: undefined,
      runs: 1,
      runsPlanned: 1,
      steps: 0,
      coverage: emptyCoverage(),
      elapsedMs: 3,
      timedOut: false,
      inputCoverage: emptyInputCoverage(setIntervalSpec),
    };
    expect(formatSummary(r)).toContain('no steps ran, so nothing was checked');
  });
});

describe('a check that cannot finish', () => {
  it('still writes the JUnit file, with the error', async () => {
    const junit = join(tmp, 'missing.xml');
    const r = await cli('run', '--handler', './no-such-handler.ts', '--junit', junit);
    expect(r.code).toBe(2);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('errors="1"');
    expect(xml).toMatch(/<error message="E_HANDLER_NOT_FOUND: /);
  });

  it('--min-runs: a time limit reached first is incomplete (exit 2), never a pass', async () => {
    // 1,000 scheduled runs cannot fit in 10 ms on any machine.
    const r = await cli(
      'run',
      '--handler',
      'check-then-act',
      '--mode',
      'scheduled',
      '--runs',
      '1000',
      '--time-limit',
      '0.01',
      '--min-runs',
      '1000',
    );
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /E_TOO_FEW_RUNS: the time limit of 0.01 s stopped the check after \d+ runs/,
    );
  });

  it('--min-runs above --runs is a usage error', async () => {
    const r = await cli('run', '--runs', '10', '--min-runs', '20');
    expect(r.code).toBe(2);
    expect(r.err).toContain('minRuns (20) cannot exceed runs (10)');
  });
});

describe('replay', () => {
  it('refuses a case file that names no handler instead of passing it on the reference', async () => {
    const file = join(tmp, 'no-handler.json');
    writeFileSync(file, '{"format":"receiptcheck-case/1","steps":[]}');
    const r = await cli('replay', file);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/E_BAD_COUNTEREXAMPLE: .* names no handler; .*--handler/);
  });
});

describe('help', () => {
  it('lists every command once', async () => {
    const r = await cli('--help');
    for (const command of ['run', 'replay', 'mutants', 'scenarios', 'soak', 'bench'])
      expect(r.out.match(new RegExp(`^ {2}${command} `, 'gm'))?.length, command).toBe(1);
  });

  it("bench --help speaks of the performance budget, not of the project's issues", async () => {
    const r = await cli('bench', '--help');
    expect(r.out).not.toMatch(/issue \d/i);
    expect(r.out).toContain(
      'performance budget (the speed and memory targets in docs/performance.md)',
    );
  });
});

describe('receiptcheck soak on a failure', () => {
  it('lists the operations that matter and saves the whole history', async () => {
    const out = join(tmp, 'soak');
    const r = await cli(
      'soak',
      '--handler',
      'replay-not-flagged',
      '--clients',
      '2',
      '--duration',
      '120',
      '--operations-max',
      '200',
      '--seed',
      '1',
      '--out',
      out,
    );
    expect(r.code).toBe(1);
    expect(r.out).toContain('    could not come next:');
    expect(r.out).toMatch(/✗ the contract gives ok\(replayed/);
    const file = join(out, 'soak-replay-not-flagged-seed1.json');
    expect(existsSync(file)).toBe(true);
    expect(r.out).toContain(file);
    const saved = decodeJson(readFileSync(file, 'utf8')) as { format: string; history: unknown[] };
    expect(saved.format).toBe('receiptcheck-soak-history/1');
    expect(saved.history.length).toBeGreaterThan(100);
  });
});
