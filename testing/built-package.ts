/**
 * The command as installed, built from this checkout by `testing/global-build.ts`, for tests that
 * start it in a child process many times. `builtBin` is its `bin/receiptcheck.js`; `built` maps a
 * file under `src/` (a fixture plugin) to its JavaScript there, so the child loads no TypeScript.
 */
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function folder(): string {
  const dir = inject('builtPackage');
  if (!dir) throw new Error('no built package: this test needs testing/global-build.ts');
  return dir;
}

/** The built package's `bin/receiptcheck.js`. */
export function builtBin(): string {
  return join(folder(), 'bin', 'receiptcheck.js');
}

/** The built JavaScript of `sourceFile`, a `.ts` or `.js` file under `src/`. */
export function built(sourceFile: string): string {
  const inSrc = relative(SRC, sourceFile);
  if (inSrc.startsWith('..')) throw new Error(`${sourceFile} is not under src/`);
  return join(folder(), 'dist', inSrc.replace(/\.ts$/, '.js'));
}
