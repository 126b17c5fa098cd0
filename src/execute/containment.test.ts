/**
 * Whatever a handler does, the run ends in a counterexample and stdout holds exactly one JSON
 * object with `--json`: a thrown plain object, an unmapped `SqliteError`, a rejection nobody
 * handles, an exception thrown from a callback (which ends a worker thread), `process.exit`, and
 * prints on stdout and stderr, which the counterexample carries as its handler output. Each in
 * every mode: sequential, concurrent, scheduled on inline lanes (synchronous handlers only: inline
 * lanes carry no promise) and on thread lanes, and soak. Each check is the real CLI in a child
 * process, so a harness that dies or prints shows here as it would to a user.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { built, builtBin } from '../../testing/built-package.ts';
import { decodeJson } from '../report/encode.ts';

/** The command as installed (`testing/built-package.ts`): started here 36 times. */
const BIN = builtBin();
const fixture = (name: string) =>
  built(fileURLToPath(new URL(`./fixtures/misbehaving/${name}.ts`, import.meta.url)));
/** Far beyond what a check takes here (seconds), far below a hung CI job. */
const BOUND_MS = 120_000;

const tmp = mkdtempSync(join(tmpdir(), 'rc-contain-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs the CLI, stdout and stderr apart; killed at the bound. */
function receiptcheck(
  argv: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...argv], {
      cwd: tmp,
      env: { ...process.env, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const bound = setTimeout(() => child.kill('SIGKILL'), BOUND_MS);
    child.on('exit', (code) => {
      clearTimeout(bound);
      resolve({ code, stdout, stderr });
    });
  });
}

/** stdout as exactly one JSON object (one line), or the test fails saying what was there. */
function oneJsonObject(stdout: string): Record<string, unknown> {
  const lines = stdout.split('\n').filter((l) => l !== '');
  expect(lines, `stdout holds one line: ${stdout.slice(0, 500)}`).toHaveLength(1);
  const parsed = decodeJson(lines[0] as string);
  expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
  return parsed as Record<string, unknown>;
}

/** Every outcome a failure names, in words: `unexpected SqliteError: …`, `refused(conflict)`. */
function outcomesIn(value: unknown): string {
  if (Array.isArray(value)) return value.map(outcomesIn).join('\n');
  if (typeof value !== 'object' || value === null) return '';
  const o = value as Record<string, unknown>;
  const own =
    o.kind === 'unexpected'
      ? o.errorClass === undefined
        ? `unexpected error(${String(o.message)})`
        : `unexpected ${String(o.errorClass)}: ${String(o.message)}`
      : o.kind === 'refused'
        ? `refused(${String(o.reason)})`
        : '';
  return [own, ...Object.values(o).map(outcomesIn)].filter((t) => t !== '').join('\n');
}

/**
 * Each misbehaviour: its fixture, whether it answers synchronously, and what the failure says.
 * A raw `SqliteError` thrown from the call was already an unexpected error before containment;
 * it stays here as a guard, beside the same error escaping as an unhandled rejection.
 */
const MISBEHAVIOURS = [
  ['throws a plain object', 'throws-object', true, /a non-Error value was thrown: \{"status":500/],
  [
    'lets an SqliteError through',
    'throws-sqlite',
    true,
    /unexpected SqliteError: no such table: no_such_table/,
  ],
  [
    'leaves a rejection unhandled',
    'rejects-unhandled',
    false,
    /unhandled rejection: SqliteError: no such table: no_such_table/,
  ],
  [
    'throws from a callback',
    'throws-in-callback',
    false,
    /uncaught exception: Error: thrown from a callback/,
  ],
  ['calls process.exit', 'calls-exit', true, /the handler called process\.exit\(7\)/],
  ['prints on stdout and stderr', 'logs', true, /refused\(conflict\)/],
] as const;

const MODES = [
  ['sequential', ['--mode', 'sequential']],
  ['concurrent', ['--mode', 'concurrent']],
  ['scheduled, inline lanes', ['--mode', 'scheduled', '--lanes', 'inline']],
  ['scheduled, thread lanes', ['--mode', 'scheduled', '--lanes', 'threads']],
] as const;

const CASES = MISBEHAVIOURS.flatMap(([what, name, sync, says]) =>
  MODES.filter(([mode]) => sync || mode !== 'scheduled, inline lanes').map(
    ([mode, flags]) => [what, mode, name, flags, says] as const,
  ),
);

describe.each(CASES)('a handler that %s, in %s mode', (_what, mode, name, flags, says) => {
  it('is a counterexample (exit 1), and stdout is one JSON object', async () => {
    const out = join(tmp, `cx-${name}-${mode.replace(/\W+/g, '-')}`);
    const r = await receiptcheck([
      'run',
      '--handler',
      fixture(name),
      ...flags,
      '--runs',
      '5',
      '--workers',
      '2',
      '--json',
      '--out',
      out,
    ]);
    const json = oneJsonObject(r.stdout);
    expect({ code: r.code, verdict: json.verdict, stderr: r.stderr.slice(0, 2000) }).toMatchObject({
      code: 1,
      verdict: 'failed',
    });
    const cx = json.counterexample as { failures: unknown[]; text: string; handlerOutput?: string };
    expect(outcomesIn(cx.failures)).toMatch(says);
    const file = readdirSync(out).find((f) => f.endsWith('.json'));
    const saved = decodeJson(readFileSync(join(out, file as string), 'utf8')) as {
      handlerOutput?: string;
    };
    if (name === 'logs') {
      // Every print of the shrunk run's calls (one call, or a call and its racing retry, whose
      // lines two threads may interleave), whichever stream and thread it came from.
      const oneCall = [
        'handling r0',
        'a warning on stderr',
        'raw stdout write',
        'automation 2: answering conflict',
      ];
      for (const o of [cx.handlerOutput, saved.handlerOutput]) {
        const lines = (o ?? '').split('\n');
        expect(lines.pop()).toBe('');
        const calls = lines.length / oneCall.length;
        expect([1, 2]).toContain(calls);
        expect(lines.sort()).toEqual(
          Array.from({ length: calls }, () => oneCall)
            .flat()
            .sort(),
        );
      }
      expect(cx.text).toContain('Handler output (its stdout and stderr during this run):');
      expect(cx.text).toContain('  | a warning on stderr');
    }
  });
});

/**
 * A rejection a synchronous handler leaves behind surfaces only after its call returned, when the
 * event loop turns: no call can honestly be blamed, so every mode stops with a labelled error
 * (exit 2, one JSON object) instead of a counterexample that would not replay, or a pass.
 */
const LATE: readonly (readonly [string, readonly string[]])[] = [
  ...MODES.map(
    ([mode, flags]) => [mode, ['run', ...flags, '--runs', '20', '--workers', '2']] as const,
  ),
  ['soak', ['soak', '--clients', '2', '--duration', '3', '--operations-max', '60']],
];

describe.each(LATE)(
  'a handler that leaves a rejection behind after it answered, in %s mode',
  (mode, argv) => {
    it('is E_HANDLER_ESCAPE, exit 2, naming the handler and the rejection', async () => {
      const r = await receiptcheck([
        ...argv,
        '--handler',
        fixture('rejects-after'),
        '--json',
        '--out',
        join(tmp, `late-${mode.replace(/\W+/g, '-')}`),
      ]);
      const json = oneJsonObject(r.stdout);
      expect({ code: r.code, json }).toMatchObject({
        code: 2,
        json: { verdict: 'error', error: { code: 'E_HANDLER_ESCAPE' } },
      });
      expect((json.error as { message: string }).message).toMatch(
        /handler "rejects-after" left behind an unhandled rejection \(no such table: no_such_audit_table\)/,
      );
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });
  },
);

describe.each(MISBEHAVIOURS)('a handler that %s, in a soak', (_what, name, _sync, says) => {
  it('fails the soak (exit 1), and stdout is one JSON object', async () => {
    const r = await receiptcheck([
      'soak',
      '--handler',
      fixture(name),
      '--clients',
      '2',
      '--duration',
      '3',
      '--operations-max',
      '60',
      '--json',
      '--out',
      join(tmp, `soak-${name}`),
    ]);
    const json = oneJsonObject(r.stdout);
    expect({ code: r.code, verdict: json.verdict, stderr: r.stderr.slice(0, 2000) }).toMatchObject({
      code: 1,
      verdict: 'failed',
    });
    expect(outcomesIn(json.failures)).toMatch(says);
    if (name === 'logs') {
      expect(json.handlerOutput).toMatch(/^handling .*\na warning on stderr\n/);
      expect(r.stderr).toContain('Handler output (its stdout and stderr during this run):');
    }
  });
});
