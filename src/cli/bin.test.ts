/**
 * The installed command as a user runs it, in a child process: the exit code and stderr of
 * `node bin/receiptcheck.js`, for a missing plugin, a plugin that lacks a function and a bad flag value, and the seed from the environment;
 * and which code the command runs: the build when installed, the sources in a checkout.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function receiptcheck(argv: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['bin/receiptcheck.js', ...argv], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('node bin/receiptcheck.js', () => {
  it('run --handler ./no-such-file.ts: exit 2, one line naming the path', () => {
    const r = receiptcheck(['run', '--handler', './no-such-file.ts']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^receiptcheck: E_HANDLER_NOT_FOUND: handler "\.\/no-such-file\.ts" [^\n]+\n$/,
    );
    expect(r.out).toBe('');
  });

  it('a plugin missing snapshot: exit 2, one line naming the function', () => {
    const r = receiptcheck(['run', '--handler', 'src/cli/fixtures/missing-snapshot.ts']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^receiptcheck: E_HANDLER_SHAPE: [^\n]*missing the function "snapshot"\n$/,
    );
  });

  it('--runs abc: exit 2, one line, no stack', () => {
    const r = receiptcheck(['run', '--runs', 'abc']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "receiptcheck: E_BAD_OPTION: option '--runs <n>' argument 'abc' is invalid. expected an integer. (see --help)\n",
    );
  });

  it('takes the seed from RECEIPTCHECK_SEED and prints it; exit 0 on the reference', () => {
    const r = receiptcheck(['run', '--runs', '5'], { RECEIPTCHECK_SEED: '1234' });
    expect(r.code).toBe(0);
    expect(r.out).toContain('seed      1234 (set with --seed or RECEIPTCHECK_SEED)');
    expect(r.err).toBe('');
  });

  it('a bad RECEIPTCHECK_SEED is a usage error', () => {
    const r = receiptcheck(['run', '--runs', '5'], { RECEIPTCHECK_SEED: 'tomorrow' });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^receiptcheck: E_BAD_OPTION: seed must be an integer \(got tomorrow\)/);
  });
});

describe('which code the command runs', () => {
  const temp = mkdtempSync(join(tmpdir(), 'receiptcheck-bin-test-'));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  /**
   * A package folder holding this bin (and the loader registration a checkout's bin imports), and a
   * src/ and a dist/ main that each say which they are.
   */
  function packageAt(dir: string): string {
    for (const file of [
      'bin/receiptcheck.js',
      'src/execute/workers/checkout-loader.mjs',
      'src/execute/workers/checkout-build-url.mjs',
    ]) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      cpSync(join(root, file), join(dir, file));
    }
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    for (const [folder, file] of [
      ['src', 'main.ts'],
      ['dist', 'main.js'],
    ] as const) {
      mkdirSync(join(dir, folder, 'cli'), { recursive: true });
      const main = `export async function main() { process.stdout.write('${folder}'); return 0; }\n`;
      writeFileSync(join(dir, folder, 'cli', file), main);
    }
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    symlinkSync(join(root, 'node_modules', 'tsx'), join(dir, 'node_modules', 'tsx'));
    return join(dir, 'bin', 'receiptcheck.js');
  }

  const ran = (bin: string) =>
    spawnSync(process.execPath, [bin], { encoding: 'utf8', timeout: 60_000 }).stdout;

  it("installed (inside node_modules): the build, the copy a plugin's import 'receiptcheck' loads", () => {
    expect(ran(packageAt(join(temp, 'project', 'node_modules', 'receiptcheck')))).toBe('dist');
  });

  it('in a checkout: the sources', () => {
    expect(ran(packageAt(join(temp, 'checkout')))).toBe('src');
  });
});
