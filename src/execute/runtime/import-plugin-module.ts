/**
 * Imports a handler plugin's module. When this thread cannot load TypeScript itself (receiptcheck
 * used from its build by a plain Node program, or a worker thread of one), tsx is registered in
 * the thread and a `.ts` plugin imported then, so users need no loader and no build step for
 * their plugin.
 * Where a loader is already registered (the CLI, vitest, tsx) the plain import just works.
 */
import { pathToFileURL } from 'node:url';
import {
  builtModuleUrl,
  inCheckoutBuild,
  registerPluginLoader,
} from '../workers/checkout-loader.mjs';

/**
 * Node's refusals of a TypeScript file: no loader at all (Node 20), and type stripping that
 * cannot handle the file (newer Nodes strip types natively, but not enums, not in node_modules).
 */
const NEEDS_A_LOADER = new Set([
  'ERR_UNKNOWN_FILE_EXTENSION',
  'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX',
  'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING',
]);

/** Imports the module at absolute `path`; throws what the import threw. */
export async function importPluginModule(path: string): Promise<{ default?: unknown }> {
  const source = pathToFileURL(path).href;
  // Where this harness is the named build of the checkout (a test run's threads and commands), a
  // plugin the build has (the sources' fixtures, the test plugins) is imported from it, sharing
  // the harness's copy.
  const url = (inCheckoutBuild(import.meta.url) && builtModuleUrl(source)) || source;
  try {
    return withEsDefault(await import(url));
  } catch (thrown) {
    const code = (thrown as { code?: unknown } | null)?.code;
    if (typeof code !== 'string' || !NEEDS_A_LOADER.has(code)) throw thrown;
    // Registered only when needed: tsx costs time and memory in every thread that loads it. Not
    // tsx's `tsImport`: it loads a plugin's imports under a namespace of their own, so a plugin's
    // `import 'receiptcheck'` got a second copy of the package, compiled again in every thread.
    await registerPluginLoader();
    // Another URL than the refused import's, which Node keeps as refused.
    return withEsDefault(await import(`${url}?tsx`));
  }
}

/**
 * The module with the default export its source declared. In a `"type": "commonjs"` project a
 * `.ts` plugin is CommonJS, and tsx compiles its `export default` to a `module.exports` marked
 * `__esModule` that holds it as `default`; importing that CommonJS module gives the whole
 * `module.exports` as the default, so the plugin is one level down.
 */
function withEsDefault(mod: { default?: unknown }): { default?: unknown } {
  const exported = mod.default as { __esModule?: unknown; default?: unknown } | null | undefined;
  if (typeof exported === 'object' && exported !== null && exported.__esModule === true)
    return { default: exported.default };
  return mod;
}
