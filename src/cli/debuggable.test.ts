/**
 * A red run a user can act on: a handler's unexpected exception keeps its stack (in the case file
 * always, on screen with `--verbose`), and a plugin that cannot be loaded is reported at its
 * `file:line:col` with the real message, both in this process (vitest's loader) and from the
 * installed command (tsx's).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeJson } from '../report/encode.ts';
import { runCli as cli } from './run-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const THROWS = 'src/cli/fixtures/throws-from-named-function.ts';
const tmp = mkdtempSync(join(tmpdir(), 'receiptcheck-debuggable-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
// A folder of its own is a CommonJS one unless it says otherwise; a user's project says so.
writeFileSync(join(tmp, 'package.json'), '{"type": "module"}\n');

/**
 * `node bin/receiptcheck.js …` in a child process, compiling the sources through tsx (not from
 * the test run's build of them), as a checkout's command does.
 */
function bin(...argv: string[]) {
  const r = spawnSync(process.execPath, ['bin/receiptcheck.js', ...argv], {
    cwd: ROOT,
    env: { ...process.env, RECEIPTCHECK_CHECKOUT_BUILD: undefined },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("a handler's unexpected exception", () => {
  it('keeps its stack in the case file, naming the function that threw', async () => {
    const out = join(tmp, 'cx');
    const r = await cli('run', '--handler', THROWS, '--out', out);
    expect(r.code).toBe(1);
    expect(r.out).toContain('actual   unexpected RangeError: interval');
    // Without --verbose the counterexample stays short.
    expect(r.out).not.toContain('at rejectLongIntervals');
    const [file] = readdirSync(out).filter((f) => f.endsWith('.json'));
    const saved = decodeJson(readFileSync(join(out, file as string), 'utf8')) as {
      failures: { kind: string; actual?: { kind: string; stack?: string } }[];
    };
    const failure = saved.failures.find((f) => f.actual?.kind === 'unexpected');
    expect(failure?.actual?.stack).toMatch(/RangeError: interval \d+ is longer/);
    expect(failure?.actual?.stack).toMatch(
      /at rejectLongIntervals \(.*throws-from-named-function\.ts:\d+:\d+\)/,
    );
    // The harness's own frames below the plugin's are cut.
    expect(failure?.actual?.stack).not.toMatch(/apply-event|sequential-call-timeout/);
  });

  it('is named by its class, even one with no message, never as an empty "unexpected error()"', async () => {
    const r = await cli(
      'run',
      '--handler',
      'src/cli/fixtures/throws-unmapped-class.ts',
      '--mode',
      'sequential',
      '--out',
      join(tmp, 'class'),
    );
    expect(r.code).toBe(1);
    expect(r.out).toContain('actual   unexpected IdempotencyConflictError (no message)');
    expect(r.out).not.toContain('unexpected error()');
  });

  it('is printed under its step with --verbose, in the installed command too', async () => {
    for (const r of [
      await cli('run', '--handler', THROWS, '--out', join(tmp, 'v1'), '--verbose'),
      bin('run', '--handler', THROWS, '--out', join(tmp, 'v2'), '--verbose'),
    ]) {
      expect(r.code).toBe(1);
      // The frames sit right under the "actual" line, two columns deeper than it, whether the
      // counterexample's failing step is a plain step or a lane of a concurrent group (which
      // indents its outcome further).
      expect(r.out).toMatch(
        /^( +)actual {3}unexpected RangeError: interval \d+ is longer than this handler allows\n\1 {2}at rejectLongIntervals \(.*throws-from-named-function\.ts:\d+:\d+\)/m,
      );
    }
  });

  it('is printed by replay --verbose too', async () => {
    const out = join(tmp, 'v3');
    expect((await cli('run', '--handler', THROWS, '--out', out)).code).toBe(1);
    const [file] = readdirSync(out).filter((f) => f.endsWith('.json'));
    const r = await cli('replay', join(out, file as string), '--verbose');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      / {10}at rejectLongIntervals \(.*throws-from-named-function\.ts:\d+:\d+\)/,
    );
    const quiet = await cli('replay', join(out, file as string));
    expect(quiet.out).not.toContain('at rejectLongIntervals');
  });
});

describe('a plugin that cannot be loaded', () => {
  const syntax = join(tmp, 'syntax-error.ts');
  writeFileSync(
    syntax,
    "import { defineHandler } from 'receiptcheck';\n\nconst plugin = {\n  name: 'x',\n  setup: ,\n};\nexport default defineHandler(plugin);\n",
  );
  const throwing = join(tmp, 'throws-on-import.ts');
  writeFileSync(
    throwing,
    "function readConfig(): never {\n  throw new Error('MY_CONFIG is not set\\nsee the docs');\n}\nreadConfig();\nexport default {};\n",
  );
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  /** The error's first line: code, the plugin, the place, then the message. */
  const firstLine = (file: string, line: number, message: string) =>
    new RegExp(
      `^receiptcheck: E_HANDLER_LOAD: handler module ${literal(file)} could not be loaded: ${literal(file)}:${line}:\\d+: ${message}`,
    );

  it('a syntax error names the file and line, not "Transform failed"', async () => {
    for (const r of [await cli('run', '--handler', syntax), bin('run', '--handler', syntax)]) {
      expect(r.code).toBe(2);
      expect(r.err).toMatch(firstLine(syntax, 5, 'Unexpected'));
      expect(r.err.trimEnd().split('\n')).toHaveLength(1);
      expect(r.err).not.toContain('Transform failed');
    }
  });

  it('an import that throws names where, and --verbose shows the whole error', async () => {
    const r = await cli('run', '--handler', throwing);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(firstLine(throwing, 2, 'MY_CONFIG is not set \\(--verbose shows'));
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    const verbose = bin('run', '--handler', throwing, '--verbose');
    expect(verbose.code).toBe(2);
    expect(verbose.err).toMatch(firstLine(throwing, 2, 'MY_CONFIG is not set'));
    expect(verbose.err).toContain('MY_CONFIG is not set\nsee the docs');
    expect(verbose.err).toMatch(/at readConfig \(.*throws-on-import\.ts:2:\d+\)/);
  });
});
