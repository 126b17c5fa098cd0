/**
 * Test-only: a user's project in a temp folder, as the README tells users to make one, and the
 * `receiptcheck` command run in it. Doc blocks import `receiptcheck` by name; here that name is
 * this checkout's `src/index.ts` (the packed package is `src/package.test.ts`'s business).
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { CheckResult, Mode } from '../src/index.ts';
import { checkHandler } from '../src/index.ts';
import { ROOT } from './doc-blocks.ts';

const BIN = join(ROOT, 'bin', 'receiptcheck.js');

/** Limits far above any call's time: a verdict on a user's project must not depend on load. */
export const PATIENT = { callTimeoutMs: 120_000, workers: 2 } as const;

/**
 * Checks `handler` through the public API with patient limits, and expects it to pass, the
 * receipt store having failed at least once; returns the result for further assertions.
 */
export async function expectPasses(
  handler: string,
  mode: Mode,
  runs: number,
): Promise<CheckResult> {
  const result = await checkHandler({ handler, mode, runs, ...PATIENT });
  expect(result.counterexample?.failures ?? []).toEqual([]);
  expect(result.verdict).toBe('passed');
  expect(result.coverage['store fails']).toBeGreaterThan(0);
  return result;
}

/**
 * A temp folder for the calling test file, made before its tests and removed after them;
 * the returned function gives its path (inside a test or a later `beforeAll`).
 */
export function tempFolder(prefix: string): () => string {
  let path = '';
  beforeAll(() => {
    path = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => {
    if (path) rmSync(path, { recursive: true, force: true });
  });
  return () => {
    if (!path) throw new Error('the temp folder is made in beforeAll; read it in a test');
    return path;
  };
}

/** `text` importing this checkout where it imports `receiptcheck`; throws if it imports none. */
export function localImports(text: string, what: string): string {
  const local = text.replaceAll("from 'receiptcheck'", `from '${join(ROOT, 'src', 'index.ts')}'`);
  if (local === text) throw new Error(`${what} no longer imports 'receiptcheck'`);
  return local;
}

/**
 * A project folder: a package.json of `type` (default `module`; `commonjs` is what `npm init -y`
 * writes under npm 11) and `files` (relative path → text).
 */
export function makeProject(
  dir: string,
  files: Readonly<Record<string, string>>,
  type: 'module' | 'commonjs' = 'module',
): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'mine', version: '1.0.0', private: true, type })}\n`,
  );
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** `npx receiptcheck …` as the installed command runs it, in `cwd`. */
export function receiptcheck(
  cwd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 300_000,
  });
}

/** A finished command for an assertion message: its exit, stdout and stderr. */
export function outcomeOf(r: SpawnSyncReturns<string>): string {
  return `exit ${r.status ?? r.signal}\n${r.stdout}\n${r.stderr}`;
}
