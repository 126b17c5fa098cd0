/**
 * What the README tells users to copy, run as they would run it, so it cannot rot: the plugin
 * example (`my-handler.ts`) over a handler written the way it describes
 * (`readme-example/src/set-interval.ts`), type-checked and checked in every mode; the CI
 * workflow's command; and every command of every `sh` block, each run here or named with the
 * test that runs it. The example imports `receiptcheck` by name; here that name is this checkout's
 * `src/index.ts` (the packed package is `src/package.test.ts`'s business).
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHandler } from '../src/api/check-handler.ts';
import { commandsOf, docBlock, docBlocks, ROOT } from './doc-blocks.ts';

const BIN = join(ROOT, 'bin', 'receiptcheck.js');
const HANDLER_SOURCE = join(ROOT, 'testing', 'readme-example', 'src', 'set-interval.ts');

/** The README's plugin, importing this checkout for `receiptcheck`; `edit` makes a broken variant. */
function readmePlugin(edit: (text: string) => string = (t) => t): string {
  const text = docBlock('my-handler.ts').text;
  const local = text.replaceAll("from 'receiptcheck'", `from '${join(ROOT, 'src', 'index.ts')}'`);
  if (local === text)
    throw new Error("the README's my-handler.ts no longer imports 'receiptcheck'");
  return edit(local);
}

/** A user's project: package.json, the README's plugin, the handler it wraps. */
function makeProject(dir: string, plugin: string): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"name": "mine", "private": true, "type": "module"}\n');
  copyFileSync(HANDLER_SOURCE, join(dir, 'src', 'set-interval.ts'));
  writeFileSync(join(dir, 'my-handler.ts'), plugin);
}

/** `npx receiptcheck …` as the installed command runs it, in the project. */
function receiptcheck(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 300_000,
  });
}

function outcomeOf(r: SpawnSyncReturns<string>): string {
  return `exit ${r.status ?? r.signal}\n${r.stdout}\n${r.stderr}`;
}

/** Limits far above any call's time: a verdict here must not depend on the machine's load. */
const PATIENT = { callTimeoutMs: 120_000, workers: 2 } as const;

let temp = '';
let project = '';
beforeAll(() => {
  temp = mkdtempSync(join(tmpdir(), 'receiptcheck-readme-'));
  project = join(temp, 'project');
  makeProject(project, readmePlugin());
});
afterAll(() => {
  if (temp) rmSync(temp, { recursive: true, force: true });
});

describe("the README's plugin example", () => {
  it('type-checks under the repository’s compiler settings', () => {
    const dir = join(temp, 'typecheck');
    makeProject(dir, readmePlugin());
    // The user's dependencies (better-sqlite3's types) as an install would provide them.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: join(ROOT, 'tsconfig.json'),
        include: [],
        files: ['my-handler.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8', timeout: 300_000 });
    expect(r.status, outcomeOf(r)).toBe(0);
  });

  it.each(['sequential', 'scheduled', 'concurrent'] as const)('passes in %s mode', async (mode) => {
    const result = await checkHandler({
      handler: join(project, 'my-handler.ts'),
      mode,
      runs: 150,
      ...PATIENT,
    });
    expect(result.counterexample?.failures ?? []).toEqual([]);
    expect(result.verdict).toBe('passed');
    expect(result.coverage['store fails']).toBeGreaterThan(0);
  });

  // The same checks must catch the two mistakes the README's example once had.
  it('without IF NOT EXISTS, a store that fails twice stops the run', async () => {
    const dir = join(temp, 'no-if-not-exists');
    makeProject(
      dir,
      readmePlugin((t) => t.replace('CREATE TRIGGER IF NOT EXISTS', 'CREATE TRIGGER')),
    );
    await expect(
      checkHandler({ handler: join(dir, 'my-handler.ts'), runs: 300, ...PATIENT }),
    ).rejects.toThrow(/already exists/);
  });

  it('without mapping failed writes to error, scheduled mode catches the injected fault', async () => {
    const dir = join(temp, 'unmapped');
    makeProject(
      dir,
      readmePlugin((t) => t.replace(/\n\s*if \(writeFailed\(e\)\)[^\n]*/, '')),
    );
    const result = await checkHandler({
      handler: join(dir, 'my-handler.ts'),
      mode: 'scheduled',
      runs: 300,
      ...PATIENT,
    });
    expect(result.verdict).toBe('failed');
  });
});

describe("the README's CI workflow", () => {
  it('its receiptcheck command passes on the example, writing JUnit and no counterexample', () => {
    const yaml = docBlock('.github/workflows/receiptcheck.yml').text;
    const folded = /- run: >\n((?:\s{10}\S.*\n)+)/.exec(yaml);
    if (!folded) throw new Error('no folded `run: >` command in the workflow');
    const command = (folded[1] ?? '').trim().split(/\s+/).join(' ');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub's expression syntax, not ours
    const shard = command.replaceAll('${{ matrix.shard }}', '1');
    const seed = /RECEIPTCHECK_SEED: (\d+)/.exec(yaml)?.[1];
    expect(shard).toMatch(/^npx receiptcheck run /);
    const r = receiptcheck(project, shard.split(' ').slice(2), {
      ...(seed ? { RECEIPTCHECK_SEED: seed } : {}),
    });
    expect(r.status, outcomeOf(r)).toBe(0);
    expect(r.stdout).toContain('PASSED');
    const junit = readFileSync(join(project, 'reports', 'receiptcheck-1.xml'), 'utf8');
    expect(junit).toContain('<testsuite');
    const saved = join(project, 'counterexamples');
    expect(existsSync(saved) ? readdirSync(saved) : []).toEqual([]);
    // Its other command is the one .ci/run starts with.
    expect(yaml).toContain('- run: npm ci');
  });
});

/**
 * The `sh` commands no test can run here, and where each is run instead: `npm ci` and `npm test`
 * are what CI runs (this test is part of `npm test`), and installing the package is done by the
 * pack test, from the tarball, since the package is not published.
 */
const RUN_ELSEWHERE: Record<string, { file: string; contains: string }> = {
  'npm ci': { file: '.ci/run', contains: '\nnpm ci\n' },
  'npm test': { file: '.ci/run', contains: '\nnpm test ' },
  'npm pkg set allowScripts.better-sqlite3=true --json': {
    file: 'src/package.test.ts',
    contains: "'npm pkg set allowScripts.better-sqlite3=true --json'",
  },
  'npm install --save-dev receiptcheck': {
    file: 'src/package.test.ts',
    contains: "'install',\n      tarball,",
  },
};

describe('every command of every sh block', () => {
  const commands = docBlocks()
    .filter((b) => b.lang === 'sh')
    .flatMap((b) => commandsOf(b).map((command) => ({ id: b.id, command })));

  it('is found (the blocks are still there)', () => {
    expect(commands.length).toBeGreaterThan(4);
  });

  it.each(commands)('$id: `$command` runs here or in the test named for it', ({ command }) => {
    const elsewhere = RUN_ELSEWHERE[command];
    if (elsewhere) {
      expect(readFileSync(join(ROOT, elsewhere.file), 'utf8')).toContain(elsewhere.contains);
      return;
    }
    if (command === 'npm run check') {
      const r = spawnSync('npm', ['run', 'check'], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 300_000,
      });
      expect(r.status, outcomeOf(r)).toBe(0);
      return;
    }
    const npx = /^npx receiptcheck (.*)$/.exec(command);
    if (!npx) throw new Error(`no test runs \`${command}\`: run it here, or name where it runs`);
    const r = receiptcheck(project, (npx[1] ?? '').split(/\s+/));
    expect(r.status, outcomeOf(r)).toBe(0);
  });
});
