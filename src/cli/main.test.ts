/**
 * The CLI in-process through `main([...])`: exit codes 0/1/2, `--json`, `--junit`, `--out` and
 * `replay`, shards, the time limit, and the coded errors of unfit plugins.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convert } from 'xmlbuilder2';
import { decodeJson } from '../report/encode.ts';
import { runCli as cli } from './run-cli.ts';

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON and XML, held to shape by the assertions
type Loose = any;

const MUTANT = 'src/handlers/operations/set-interval/sqlite/mutants/version-before-receipt.ts';
const tmp = mkdtempSync(join(tmpdir(), 'receiptcheck-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('receiptcheck run', () => {
  it('exits 0 on the reference and prints the summary with the seed and how to set it', async () => {
    const r = await cli('run', '--runs', '30');
    expect(r.code).toBe(0);
    expect(r.out).toContain('seed      42 (set with --seed or RECEIPTCHECK_SEED)');
    expect(r.out).toContain('runs      30 of 30');
    expect(r.out).toMatch(/events {4}new intent \d+/);
    expect(r.out).toContain('PASSED');
  });

  it('--mode auto, the default its help names, is accepted and runs what no --mode runs', async () => {
    const auto = await cli('run', '--mode', 'auto', '--runs', '4');
    const none = await cli('run', '--runs', '4');
    expect(auto.code, auto.err).toBe(0);
    expect(auto.out).toContain('reference in sequential + scheduled modes');
    const firstLines = (out: string) => out.split('\n').slice(0, 2);
    expect(firstLines(auto.out)).toEqual(firstLines(none.out));
    expect((await cli('run', '--help')).out).toMatch(/--mode <mode> +auto\|sequential\|/);
  });

  it('exits 1 on a mutant, prints numbered steps, writes a file that replay reproduces', async () => {
    const out = join(tmp, 'cx');
    const r = await cli('run', '--handler', MUTANT, '--out', out);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^ {2}1\. {2}/m);
    expect(r.out).toMatch(/\S+@team-\w sends r\d/);
    expect(r.out).toContain('✗ expected ok(replayed');
    expect(r.out).toContain('rule 7');
    // The case file, and its HTML timeline beside it.
    expect(readdirSync(out).sort()).toEqual([
      'version-before-receipt-sequential-seed42.html',
      'version-before-receipt-sequential-seed42.json',
    ]);
    const file = 'version-before-receipt-sequential-seed42.json';
    const path = join(out, file as string);
    expect(r.out).toContain(`replay:  npx receiptcheck replay ${path}`);
    const replay = await cli('replay', path);
    expect(replay.code).toBe(1);
    expect(replay.out).toContain('fails against');
    const fixed = await cli('replay', path, '--handler', 'reference');
    expect(fixed.code).toBe(0);
    expect(fixed.out).toContain('no longer fails');
  });

  it('a handler that stores refusals as receipts exits 1 with a counterexample naming the call', async () => {
    const r = await cli(
      'run',
      '--handler',
      'testing/handlers/findings/stores-refusals.ts',
      '--runs',
      '40',
      '--out',
      join(tmp, 'stored-refusal'),
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    expect(r.out).toContain('Counterexample for stores-refusals');
    expect(r.out).toMatch(
      /after step (\d+): .*: the call under its key at step \1 answered refused\(conflict\)/,
    );
  });

  it("concurrent mode: a race mutant exits 1 with each client's outcome and the order that fits", async () => {
    const r = await cli(
      'run',
      '--handler',
      'race-loser-error',
      '--mode',
      'concurrent',
      '--out',
      join(tmp, 'race'),
    );
    expect(r.code).toBe(1);
    expect(r.out).toContain('at the same moment, on separate connections:');
    expect(r.out).toMatch(/✗ expected .*\n\s+actual /);
    // Threads decide whether shrinking left steps that do not matter. If it did, the case was
    // reduced under a schedule and the report is that scheduled run, with its interleaving;
    // otherwise it is the threads' run, judged against the order that fits.
    if (r.out.includes('Interleaving (statement by statement')) {
      expect(r.out).toContain('(deterministic: runs the scheduled reproduction saved with it)');
    } else {
      expect(r.out).toContain('(after the order that fits)');
      expect(r.out).toContain('match no serial order consistent with real time');
    }
  });

  it('--json prints exactly one object with the verdict, counts, coverage, seed and counterexample', async () => {
    const r = await cli('run', '--handler', MUTANT, '--json', '--out', join(tmp, 'json'));
    expect(r.code).toBe(1);
    const report = decodeJson(r.out) as Loose;
    expect(report).toMatchObject({
      verdict: 'failed',
      seed: 42,
      handlerName: 'version-before-receipt',
    });
    expect(report.runs).toBeGreaterThan(0);
    expect(report.coverage['new intent']).toBeGreaterThan(0);
    expect(report.counterexample.steps.length).toBeGreaterThan(0);
    expect(report.counterexample.explanations[0].rule).toBe('7');
    expect(r.err).toContain('verdict   FAILED');
    const ok = decodeJson((await cli('run', '--runs', '10', '--json')).out) as Loose;
    expect(ok).toMatchObject({ verdict: 'passed', runs: 10, runsPlanned: 10, timedOut: false });
    expect(ok.counterexample).toBeUndefined();
  });

  it('--junit writes valid XML: one testsuite, a testcase with the counterexample as failure', async () => {
    const file = join(tmp, 'reports', 'junit.xml');
    expect((await cli('run', '--handler', MUTANT, '--junit', file, '--out', tmp)).code).toBe(1);
    const doc = convert(readFileSync(file, 'utf8'), { format: 'object' }) as Loose;
    const suite = doc.testsuites.testsuite;
    expect(suite['@tests']).toBe('1');
    expect(suite['@failures']).toBe('1');
    expect(suite.testcase.failure['#']).toContain('1.  ');
    const pass = join(tmp, 'pass.xml');
    expect((await cli('run', '--runs', '5', '--junit', pass)).code).toBe(0);
    const passed = convert(readFileSync(pass, 'utf8'), { format: 'object' }) as Loose;
    expect(passed.testsuites.testsuite['@failures']).toBe('0');
  });

  it('--shard splits deterministically: same seed and shard, same result; other shard, other runs', async () => {
    const shard = async (s: string) =>
      decodeJson(
        (await cli('run', '--runs', '40', '--seed', '7', '--shard', s, '--json')).out,
      ) as Loose;
    const [a, b, other] = [await shard('1/2'), await shard('1/2'), await shard('2/2')];
    expect(a.runsPlanned).toBe(20);
    expect({ steps: b.steps, coverage: b.coverage }).toEqual({
      steps: a.steps,
      coverage: a.coverage,
    });
    expect(a.shardSeed).not.toBe(other.shardSeed);
    expect(other.steps).not.toBe(a.steps);
  });

  it('--time-limit stops early, cleanly, and says so', async () => {
    const r = await cli('run', '--runs', '1000000', '--time-limit', '0.5', '--json');
    expect(r.code).toBe(0);
    const report = decodeJson(r.out) as Loose;
    expect(report.timedOut).toBe(true);
    expect(report.runs).toBeLessThan(report.runsPlanned);
    expect(report.elapsedMs).toBeLessThan(10_000);
    expect(r.err).toContain('stopped   by the time limit of 0.5 s');
  });
});

describe('a call slower than the budget: a counterexample (exit 1), not an error', () => {
  // Scheduled mode runs plain steps (and a replayable handler's lanes) in this thread too.
  it.each([
    ['hangs.ts', 'sequential', /✗ did not return within 200 ms \(its promise never settled\)/],
    // The hang may be shrunk to a plain step (this thread) or a lane of a group (a worker thread).
    [
      'hangs.ts',
      'scheduled',
      /✗ did not return within 200 ms \((its promise never settled|its worker thread was stopped)\)/,
    ],
    ['slow-sync.ts', 'sequential', /✗ did not return within 50 ms \(still running, stopped\)/],
    ['slow-sync.ts', 'scheduled', /✗ did not return within 50 ms \(still running, stopped\)/],
  ])('%s in %s mode', async (fixture, mode, mark) => {
    const budget = fixture === 'hangs.ts' ? '200' : '50';
    const out = join(tmp, `slow-${fixture}-${mode}`);
    const r = await cli(
      'run',
      '--handler',
      `src/cli/fixtures/${fixture}`,
      '--mode',
      mode,
      '--call-timeout-ms',
      budget,
      '--runs',
      '3',
      '--out',
      out,
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(mark);
    expect(r.out).toContain('FAILED');
    expect(readdirSync(out).filter((f) => f.endsWith('.json'))).toHaveLength(1);
  });
});

describe('errors a user can act on: exit 2, one line, a stable code', () => {
  const cases: [string[], RegExp][] = [
    [
      ['run', '--handler', 'src/cli/fixtures/no-default.ts'],
      /E_HANDLER_NO_DEFAULT: .*no default export/,
    ],
    [
      ['run', '--handler', 'src/cli/fixtures/missing-snapshot.ts'],
      /E_HANDLER_SHAPE: .*missing the function "snapshot"/,
    ],
    [
      ['run', '--handler', 'src/cli/fixtures/expiry-without-clock.ts'],
      /E_HANDLER_SHAPE: .*declares an expiry .* but has no advanceClock/,
    ],
    [
      ['run', '--handler', 'src/cli/fixtures/setup-throws.ts'],
      /E_HANDLER_SETUP: .*setup\(db, fixture\) threw: table automations already exists/,
    ],
    [
      ['run', '--handler', 'src/cli/fixtures/setup-async.ts'],
      /E_HANDLER_SETUP: .*setup\(db, fixture\) returned a promise.*engine: 'postgres'/,
    ],
    [
      ['run', '--handler', 'src/cli/fixtures/bad-snapshot.ts', '--runs', '3'],
      /E_SNAPSHOT_SHAPE: .*no "automations" array/,
    ],
    [
      ['run', '--handler', 'src/'],
      /E_HANDLER_NOT_FOUND: handler "src\/" is a folder .*src\/my-handler\.ts$/m,
    ],
    [['run', '--seed', '1.5'], /E_BAD_OPTION: .*--seed/],
    [['run', '--workers', '0'], /E_BAD_OPTION: workers must be a positive integer/],
    [['run', '--shard', '2'], /E_BAD_OPTION: .*expected i\/n/],
    [['run', '--lanes', 'fast'], /E_BAD_OPTION: .*--lanes.*expected one of auto, inline, threads/],
    [
      ['run', '--mode', 'fast'],
      /E_BAD_OPTION: .*--mode.*expected one of auto, sequential, concurrent, scheduled\. \(see --help\)$/m,
    ],
    // A slip of a letter or two gets the nearest choice, as a mistyped option does.
    [
      ['run', '--mode', 'sequental'],
      /E_BAD_OPTION: .*--mode.*expected one of auto, .*, scheduled\. \(Did you mean sequential\?\)/,
    ],
    // Commander's suggestion is on a line of its own: it must reach the user, not an ellipsis.
    [
      ['run', '--run', '3'],
      /E_USAGE: unknown option '--run' \(Did you mean --runs\?\) \(see --help\)$/m,
    ],
    [['replay', join(tmpdir(), 'no-such-case.json')], /E_BAD_SCENARIO: cannot read case file/],
    [['replay'], /E_USAGE: missing required argument 'file'/],
    [
      ['scenarios', '--dir', join(tmpdir(), 'no-such-dir')],
      /E_BAD_SCENARIO: no folder .*; pass one with --dir \(receiptcheck's own are in scenarios: adjust-balance, article, /,
    ],
  ];
  it.each(cases)('%j', async (argv, message) => {
    const r = await cli(...argv);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^receiptcheck: E_[A-Z_]+: [^\n]+\n$/);
    expect(r.err).toMatch(message);
    expect(r.out).toBe('');
  });

  it('shows the stack only with --verbose, and a JSON error object with --json', async () => {
    const r = await cli(
      'run',
      '--handler',
      'src/cli/fixtures/setup-throws.ts',
      '--verbose',
      '--json',
    );
    expect(r.code).toBe(2);
    expect(r.err.split('\n').length).toBeGreaterThan(3);
    expect(r.err).toContain('caused by: Error: table automations already exists');
    expect(decodeJson(r.out)).toMatchObject({
      verdict: 'error',
      error: { code: 'E_HANDLER_SETUP' },
    });
  });
});

describe('help', () => {
  it('answers real questions: defaults, environment, exit codes, examples', async () => {
    const r = await cli('run', '--help');
    expect(r.code).toBe(0);
    for (const text of [
      'default: 300',
      'RECEIPTCHECK_SEED',
      'Exit codes:',
      'Examples:',
      './counterexamples',
    ])
      expect(r.out).toContain(text);
    expect((await cli('--help')).code).toBe(0);
  });
});
