/**
 * A handler that loops forever after its first `await` is a hang, in every mode, as one that
 * loops before it: that code runs from the microtask queue, which the call budget runs inside
 * its watched stretch (`runtime/task.ts`, `drained`), so the watchdog stops it and names the call.
 * Each check is the real CLI in a child process, so a mode that cannot stop the loop fails this
 * test by the bound instead of hanging the suite. Only the verdict is asserted, never a time.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeJson } from '../report/encode.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(REPO, 'bin/receiptcheck.js');
const HANDLER = fileURLToPath(new URL('./fixtures/busy-after-await-handler.ts', import.meta.url));
const BUDGET_MS = 300;
/** Far beyond what a check takes here (seconds), far below a hung CI job. */
const BOUND_MS = 120_000;

const tmp = mkdtempSync(join(tmpdir(), 'rc-hang-after-await-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs the CLI; kills it at the bound (a mode that cannot stop the loop), reporting how it ended. */
function receiptcheck(argv: readonly string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...argv], {
      cwd: tmp,
      env: { ...process.env, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      out += String(chunk);
    });
    const bound = setTimeout(() => child.kill('SIGKILL'), BOUND_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(bound);
      resolve({ code, out: signal ? `${out}\n(killed by ${signal})` : out });
    });
  });
}

describe.each([
  ['sequential', ['--mode', 'sequential'], 'still running, stopped'],
  // Shrunk to one plain step, which runs on the coordinator's thread.
  ['scheduled', ['--mode', 'scheduled'], /still running, stopped|worker thread was stopped/],
  ['concurrent', ['--mode', 'concurrent'], 'worker thread was stopped'],
] as const)('a loop after an await, in %s mode', (name, mode, how) => {
  it('is a hang: exit 1, shrunk to the call, saved as a hang', async () => {
    const out = join(tmp, `cx-${name}`);
    const r = await receiptcheck([
      'run',
      '--handler',
      HANDLER,
      ...mode,
      '--call-timeout-ms',
      String(BUDGET_MS),
      '--runs',
      '40',
      '--workers',
      '2',
      '--out',
      out,
    ]);
    expect({ code: r.code, out: r.out }).toMatchObject({ code: 1 });
    expect(r.out).toMatch(/✗ did not return within 300 ms \(/);
    expect(r.out).toMatch(how);
    expect(r.out).toMatch(/Counterexample for [\w-]+ \(\w+ mode\): 1 step,/);
    const [file] = readdirSync(out).filter((f) => f.endsWith('.json'));
    const saved = decodeJson(readFileSync(join(out, file as string), 'utf8')) as {
      failures: { kind: string; limitMs: number }[];
    };
    expect(saved.failures).toEqual([expect.objectContaining({ kind: 'hang', limitMs: BUDGET_MS })]);
  });
});
