/**
 * The layering lint (`npm run lint:layers`, run by `npm run lint` and so by .ci/run) fails on a
 * planted upward import, a planted cycle, and the schedule core or PostgreSQL importing SQLite's
 * folder, and passes a clean tree. Both trees live in
 * testing/layering-fixture, outside the real src/, and are cruised with the project's own
 * .dependency-cruiser.mjs.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cruise, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const CONFIG = join(ROOT, '.dependency-cruiser.mjs');
const FIXTURES = join(ROOT, 'testing/layering-fixture');

// dependency-cruiser reports a cycle once, from one of its files, not once per file in it.
const PLANTED = [
  'engines-apart: src/execute/postgres/lane-driver.ts → src/execute/sqlite/lanes.ts',
  'lib-at-the-bottom: src/lib/sorted.ts → src/model/receipt.ts',
  'no-circular: src/model/key.ts → src/model/receipt.ts → src/model/key.ts',
  'pure-layers-stay-pure: src/check/verdict.ts → src/execute/trace.ts',
  'schedule-core-is-engine-neutral: src/execute/schedule/grant-loop.ts → src/execute/sqlite/lanes.ts',
];

const oneLine = (v: IViolation): string =>
  `${v.rule.name}: ${(v.cycle ? [v.from, ...v.cycle.map((step) => step.name)] : [v.from, v.to]).join(' → ')}`;

/** Cruises `<fixture>/src` with the project's config and returns its violations, one line each. */
async function cruiseFixture(fixture: string) {
  const options = await extractDepcruiseOptions(CONFIG);
  const { output } = await cruise(['src'], { ...options, baseDir: join(FIXTURES, fixture) });
  if (typeof output === 'string') throw new Error('expected a cruise result, got formatted text');
  return {
    violations: output.summary.violations.map(oneLine).sort(),
    dependencies: output.summary.totalDependenciesCruised,
  };
}

describe('layering lint (.dependency-cruiser.mjs)', () => {
  it('reports the planted upward import and the planted cycle', async () => {
    const { violations } = await cruiseFixture('violating');
    // Exactly these: the upward import in verdict.test.ts is exempt (test files may reach up).
    expect(violations).toEqual(PLANTED);
  });

  it('passes a clean tree, having resolved every `./x.ts` import', async () => {
    const { violations, dependencies } = await cruiseFixture('clean');
    expect(violations).toEqual([]);
    // 4 imports in the clean tree; 0 here would mean `.ts`-extension imports went unresolved
    // and every rule passed vacuously.
    expect(dependencies).toBe(4);
  });

  it('`npm run lint:layers` exits non-zero with one line per violation on the planted tree', async () => {
    // Run the script's own command line from the fixture instead of the project root, so its
    // `src` argument names the fixture's src; only the config's path is kept pointing home.
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const [bin, ...args] = (pkg.scripts['lint:layers'] ?? '').replaceAll('$PWD', ROOT).split(/\s+/);
    expect(bin).toBe('depcruise');
    const config = args.indexOf('--config') + 1;
    expect(config).toBeGreaterThan(0);
    args[config] = resolve(ROOT, args[config] ?? '');
    const run = promisify(execFile)(join(ROOT, 'node_modules/.bin/depcruise'), args, {
      cwd: join(FIXTURES, 'violating'),
    });
    const failure = await run.then(
      () => expect.fail('lint:layers passed on a tree with planted violations'),
      (error: { code: number; stdout: string }) => error,
    );
    expect(failure.code).toBe(PLANTED.length);
    const lines = failure.stdout.trimEnd().split('\n');
    expect(lines.slice(0, -1).sort()).toEqual(PLANTED.map((p) => `error ${p}`));
    expect(lines.at(-1)).toMatch(new RegExp(`^${PLANTED.length} dependency violations`));
  });
});
