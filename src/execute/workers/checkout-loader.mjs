// How receiptcheck loads its TypeScript sources where it runs from them (a checkout: the command,
// a worker thread, the checker's child process). From the build nothing calls this: tsx's hooks
// slow every module a thread loads, and import-plugin-module registers them only when a
// TypeScript plugin comes.
//
// Normally it registers tsx for both of Node's module systems, as the tsx command does. In a
// `"type": "commonjs"` project (what `npm init -y` writes) a `.ts` plugin is CommonJS, and tsx's
// CommonJS hook is what compiles its import syntax; with the ES module hook alone Node fails it as
// a require(esm) cycle.
//
// When `RECEIPTCHECK_CHECKOUT_BUILD` names a build of this checkout's sources (the test run makes
// one, `testing/global-build.ts`), the sources are loaded from that build instead
// (`checkout-build-hooks.mjs`) and tsx is not registered: registering it costs about 0.4 CPU-s in
// every thread, and the test run starts hundreds. A TypeScript file outside the sources (a user's
// plugin) then registers tsx when it comes, as from an installed package.
import { readFileSync } from 'node:fs';
import { register as registerHooks } from 'node:module';
import { join } from 'node:path';

/** Names a folder holding `dist/` built from a checkout's `src/`, and `built-from` naming it. */
export const CHECKOUT_BUILD_ENV = 'RECEIPTCHECK_CHECKOUT_BUILD';

/** Registers, in this thread, how this checkout's TypeScript sources load. */
export async function registerCheckoutLoader() {
  const src = new URL('../../', import.meta.url).href;
  const build = process.env[CHECKOUT_BUILD_ENV];
  if (build && builtFrom(build) === src) {
    const dist = new URL(`file://${join(build, 'dist')}/`).href;
    registerHooks('./checkout-build-hooks.mjs', import.meta.url, { data: { src, dist } });
    return;
  }
  await registerTsx();
}

let tsx;

/**
 * Registers tsx's hooks for both of Node's module systems in this thread, once. Also how a
 * TypeScript plugin loads where no loader is registered (`runtime/import-plugin-module.ts`).
 */
export function registerTsx() {
  tsx ??= Promise.all([import('tsx/cjs/api'), import('tsx/esm/api')]).then(([commonJs, esm]) => {
    commonJs.register();
    esm.register();
  });
  return tsx;
}

/** The `src/` URL the build in `folder` was made from, or undefined. */
function builtFrom(folder) {
  try {
    return readFileSync(join(folder, 'built-from'), 'utf8').trim();
  } catch {
    return undefined;
  }
}
