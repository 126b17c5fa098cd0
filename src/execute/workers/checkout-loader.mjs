// How receiptcheck loads its TypeScript sources where it runs from them (a checkout: the command,
// a worker thread, the checker's child process), and a TypeScript plugin anywhere. From the build
// only a TypeScript plugin registers anything (`registerPluginLoader`, called by
// import-plugin-module when one comes): tsx's hooks slow every module a thread loads.
//
// Normally it registers tsx for both of Node's module systems, as the tsx command does. In a
// `"type": "commonjs"` project (what `npm init -y` writes) a `.ts` plugin is CommonJS, and tsx's
// CommonJS hook is what compiles its import syntax; with the ES module hook alone Node fails it as
// a require(esm) cycle.
//
// When `RECEIPTCHECK_CHECKOUT_BUILD` names a build of this checkout (the test run makes one of its
// sources and test plugins, `testing/global-build.ts`), they are loaded from that build instead,
// and tsx is not registered: registering it costs about 0.4 CPU-s in every thread, and the test
// run starts hundreds. A thread or command then imports its entry and a plugin the build has by
// their built URLs (`builtModuleUrl`), with no hook. A TypeScript plugin it does not have (a
// user's project in a doc test) registers the build's hooks (`checkout-build-hooks.mjs`, so its
// imports of the sources get the build) and tsx when it comes, as from an installed package.
import { readFileSync } from 'node:fs';
import { register as registerHooks } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { builtUrl } from './checkout-build-url.mjs';

/** Names a build of a checkout: a folder of its tree built, with `built-from` naming it. */
export const CHECKOUT_BUILD_ENV = 'RECEIPTCHECK_CHECKOUT_BUILD';

/** Registers, in this thread, how this checkout's TypeScript sources load; once. */
export function registerCheckoutLoader() {
  registered ??= (async () => {
    const build = namedBuild();
    if (build) registerHooks('./checkout-build-hooks.mjs', import.meta.url, { data: build });
    else await registerTsx();
  })();
  return registered;
}

/**
 * The build's JavaScript for `url`, a `.ts` module of this checkout, when a build of this checkout
 * is named and has it; else undefined. A thread that imports its entry and its plugin by these
 * URLs needs no hook at all: the hooks' own thread costs about 0.1 CPU-s in every thread.
 */
export function builtModuleUrl(url) {
  const build = namedBuild();
  return build ? builtUrl(build, url) : undefined;
}

/**
 * The URL a thread or command of this checkout imports its `.ts` entry `url` by: the build's when
 * one is named, with no loader; else `url` itself, once the checkout's loader is registered.
 */
export async function checkoutEntry(url) {
  const built = builtModuleUrl(url);
  if (built) return built;
  await registerCheckoutLoader();
  return url;
}

/** Whether `url` is a module of the named build of this checkout: the harness runs from it. */
export function inCheckoutBuild(url) {
  const build = namedBuild();
  return !!build && url.startsWith(build.out);
}

/**
 * What a thread registers when a plugin needs a loader: the checkout's (so that a plugin outside
 * the sources that imports them gets the build's copy, as the thread's harness is), then tsx for
 * the plugin's own TypeScript.
 */
export async function registerPluginLoader() {
  await registerCheckoutLoader();
  await registerTsx();
}

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

/** The folder holding this file's `src/`: the checkout, or a build of it. */
const OWN_ROOT = new URL('../../../', import.meta.url).href;
let registered;
let tsx;
/** `namedBuild`'s answer, read once per thread. */
let build;

/**
 * The named build as `{root, out}` when it was made from this checkout: `root` is the checkout's
 * folder URL, `out` the build's, both ending in a slash. Else null, as when this file is in
 * neither.
 */
function namedBuild() {
  if (build !== undefined) return build;
  const folder = process.env[CHECKOUT_BUILD_ENV];
  const root = folder && builtFrom(folder);
  const out = folder && pathToFileURL(join(folder, '/')).href;
  build = root && (OWN_ROOT === root || OWN_ROOT === out) ? { root, out } : null;
  return build;
}

/** The checkout's folder URL the build in `folder` was made from, or undefined. */
function builtFrom(folder) {
  try {
    return readFileSync(join(folder, 'built-from'), 'utf8').trim();
  } catch {
    return undefined;
  }
}
