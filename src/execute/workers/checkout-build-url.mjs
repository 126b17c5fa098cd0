// Where a build of the checkout (`checkout-loader.mjs`) has its JavaScript of a checkout's module:
// shared by the loader, which imports by it, and the hooks (`checkout-build-hooks.mjs`), which
// resolve to it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The build's `.js` URL of `url`, a `.ts` file under `build.root`, when the build has it (the
 * tests are not built); else undefined. `build.root` and `build.out` end in a slash.
 */
export function builtUrl(build, url) {
  if (!url.startsWith(build.root) || !url.endsWith('.ts')) return undefined;
  const built = `${build.out}${url.slice(build.root.length, -'.ts'.length)}.js`;
  return existsSync(fileURLToPath(built)) ? built : undefined;
}
