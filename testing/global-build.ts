/**
 * Vitest global setup: a build of this checkout's sources and test plugins (`src/`, fixtures
 * included, and `testing/handlers/`), made once per run (and again before a watch mode rerun),
 * for two uses. Through `RECEIPTCHECK_CHECKOUT_BUILD` (set in `vitest.setup.ts`) every worker
 * thread the tests start, and every command they start from the checkout, runs it and loads
 * plugins from it instead of compiling them through tsx (`src/execute/workers/checkout-loader.mjs`):
 * tsx costs about 0.4 CPU-s in each of the hundreds of threads a run starts. And it is the package
 * as installed for the tests that start the command dozens of times to watch it stop a hang,
 * contain a misbehaving plugin or end on a signal (`testing/built-package.ts`).
 *
 * The folder sits under `node_modules/` so the copied `bin/receiptcheck.js` runs as installed
 * (its `dist/`, no loader). It holds the checkout's tree as built (`src/`, `testing/handlers/`),
 * and `dist/` is a link to its `src/`: a test plugin's import of the sources then reaches the
 * harness's own copy, and the checkout's dependencies resolve from the folders above. Type errors
 * are `npm run typecheck`'s: the build only emits.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TestProject } from 'vitest/node';
import { must } from './packed-project.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The built package's folder: `bin/`, `dist/` (a link to the built `src/`, fixtures included),
     * the built `testing/handlers/`, `scenarios/`, `built-from`.
     */
    builtPackage: string;
  }
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export default function setup(project: TestProject): () => void {
  const cache = join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'receiptcheck-built-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const config = join(ROOT, 'testing/tsconfig.built.json');
  const build = () => {
    must(ROOT, process.execPath, [tsc, '-p', config, '--outDir', dir]);
  };
  try {
    build();
    // What `checkout-loader.mjs` checks before it loads these sources from here.
    writeFileSync(join(dir, 'built-from'), `${pathToFileURL(ROOT).href}\n`);
    symlinkSync(join(dir, 'src'), join(dir, 'dist'), 'dir');
    mkdirSync(join(dir, 'bin'));
    copyFileSync(join(ROOT, 'bin/receiptcheck.js'), join(dir, 'bin/receiptcheck.js'));
    copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    symlinkSync(join(ROOT, 'scenarios'), join(dir, 'scenarios'));
  } catch (thrown) {
    remove();
    throw thrown;
  }
  project.provide('builtPackage', dir);
  project.onTestsRerun(build);
  return remove;
}
