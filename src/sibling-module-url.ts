/**
 * Names a module beside the caller by its source name, and gives it the caller's own extension:
 * `.ts` when receiptcheck runs from its sources (tsx, vitest), `.js` when it runs from the build
 * in `dist/`. tsc's `rewriteRelativeImportExtensions` rewrites import specifiers only, so module
 * paths held as strings (worker modules, bundled handlers loaded by name) go through here.
 */
import { extname } from 'node:path';

/**
 * The URL of `relative` (a `.ts` path, as in the sources) resolved against `callerUrl` (the
 * caller's `import.meta.url`), ending in the caller's extension.
 * @example siblingModuleUrl('./workers/checker-worker.ts', import.meta.url)
 */
export function siblingModuleUrl(relative: string, callerUrl: string): URL {
  if (!relative.endsWith('.ts')) throw new Error(`expected a .ts module path, got ${relative}`);
  const extension = extname(new URL(callerUrl).pathname);
  return new URL(relative.slice(0, -'.ts'.length) + extension, callerUrl);
}
