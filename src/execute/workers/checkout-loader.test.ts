/**
 * Where a build of this checkout is named (a test run's threads and commands), a thread runs the
 * build and imports a plugin the build has (under `src/` or `testing/handlers/`) from it with no
 * module hook registered; another TypeScript plugin registers hooks, and its imports of the
 * sources get the build's copy. Seen in a child process whose `module.register` counts calls.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { CHECKOUT_BUILD_ENV } from './checkout-loader.mjs';

const dir = mkdtempSync(join(tmpdir(), 'rc-checkout-loader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'package.json'), '{"type": "module"}\n');
const source = (rel: string) => new URL(rel, import.meta.url).href;

/**
 * What a thread of the checkout sees importing `plugin` through the build's importer: whether
 * the plugin's `ReceiptcheckError` is the build's, and how many hooks were registered.
 */
function importFromCheckout(plugin: string): { same: boolean; registered: number } {
  const program = `
import nodeModule, { syncBuiltinESMExports } from 'node:module';
const real = nodeModule.register;
let registered = 0;
nodeModule.register = (...args) => { registered++; return real(...args); };
syncBuiltinESMExports();
const { builtModuleUrl } = await import(${JSON.stringify(source('./checkout-loader.mjs'))});
const { importPluginModule } = await import(builtModuleUrl(${JSON.stringify(source('../runtime/import-plugin-module.ts'))}));
const { ReceiptcheckError } = await import(builtModuleUrl(${JSON.stringify(source('../../errors.ts'))}));
const mod = await importPluginModule(${JSON.stringify(plugin)});
console.log(JSON.stringify({ same: mod.ReceiptcheckError === ReceiptcheckError, registered }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', program], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, [CHECKOUT_BUILD_ENV]: inject('builtPackage') },
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { same: boolean; registered: number };
}

describe('a thread of the checkout, with its build named', () => {
  it('imports a plugin under src/ or testing/handlers/ from the build, registering no hook', () => {
    // Any module of the sources will do as the plugin: errors.ts exports the class compared.
    const plugin = fileURLToPath(source('../../errors.ts'));
    expect(importFromCheckout(plugin)).toEqual({ same: true, registered: 0 });
    const testPlugin = fileURLToPath(source('../../../testing/handlers/findings/two-bugs.ts'));
    expect(importFromCheckout(testPlugin)).toMatchObject({ registered: 0 });
  });

  it("registers hooks for another TypeScript plugin, which gets the build's copy", () => {
    const plugin = join(dir, 'outside.ts');
    const errors = pathToFileURL(fileURLToPath(source('../../errors.ts'))).href;
    writeFileSync(
      plugin,
      `export { ReceiptcheckError } from '${errors}';\nconst typed: number = 1;\n`,
    );
    const seen = importFromCheckout(plugin);
    expect(seen.same).toBe(true);
    expect(seen.registered).toBeGreaterThan(0);
  });
});
