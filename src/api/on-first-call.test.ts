/**
 * Importing the package loads none of the harness's running parts: a plugin imports it in every
 * worker thread of a check. Seen from a fresh `node` on the test run's build, by a resolve hook
 * that lists every module the import loads; then the lazily loaded functions still run.
 */
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { built } from '../../testing/built-package.ts';

// By its real path, as Node names the modules it loads (the build's `dist/` may be a link).
const INDEX = pathToFileURL(
  realpathSync(built(fileURLToPath(new URL('../index.ts', import.meta.url)))),
).href;

/** A resolve hook that prints each module's URL as it is resolved. */
const LIST_HOOK = `data:text/javascript,${encodeURIComponent(
  'export async function resolve(s, c, next) { const r = await next(s, c); console.log(r.url); return r; }',
)}`;

/** The module URLs `program` loads, run as an ES module in a fresh `node`, and its exit. */
function loaded(program: string): { urls: string[]; status: number | null; stderr: string } {
  const register = `import { register } from 'node:module'; register(${JSON.stringify(LIST_HOOK)});`;
  const r = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module'],
    { input: program, encoding: 'utf8' },
  );
  return { urls: r.stdout.split('\n').filter(Boolean), status: r.status, stderr: r.stderr };
}

describe('importing the package', () => {
  it('loads no runner, judge or generator until a check is asked for, which then runs', () => {
    const before = loaded(`import(${JSON.stringify(INDEX)});`);
    expect(before.status, before.stderr).toBe(0);
    const dist = INDEX.replace(/index\.js$/, '');
    const inDist = before.urls.filter((u) => u.startsWith(dist)).map((u) => u.slice(dist.length));
    expect(inDist).toContain('handlers/plugin.js');
    for (const running of [
      'api/check-handler.js',
      'api/assert-handler.js',
      'api/prove.js',
      'api/soak.js',
      'api/run-case.js',
      'api/replay-case.js',
      'api/counterexample-store.js',
      'execute/create-runner.js',
      // Every protocol a service may speak, which a plugin never needs.
      'execute/service/load-service.js',
    ])
      expect(inDist).not.toContain(running);

    const check = loaded(
      `const { checkHandler } = await import(${JSON.stringify(INDEX)});
const r = await checkHandler({ mode: 'sequential', runs: 3 });
if (r.verdict !== 'passed') process.exit(1);`,
    );
    expect(check.status, check.stderr).toBe(0);
    expect(check.urls.some((u) => u.endsWith('/api/check-handler.js'))).toBe(true);
  });
});
