// Module hooks (`checkout-loader.mjs`) that load a checkout's modules from a build of them: a
// module resolved to a `.ts` file the build has (the sources, the test plugins) resolves to the
// build's `.js` of it instead, so every importer in the thread (the harness, a fixture plugin, a
// user's plugin importing the sources) gets one copy, the build's. Other files resolve as they
// would.
import { builtUrl } from './checkout-build-url.mjs';

/** `{root, out}`: the checkout's folder URL and the build's copy of its tree. */
let build;

export function initialize(data) {
  build = data;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const url = new URL(resolved.url);
  if (url.protocol !== 'file:') return resolved;
  // Without any query a loader added, so the build's copy is the one.
  const built = builtUrl(build, `file://${url.pathname}`);
  return built ? { url: built, format: 'module', shortCircuit: true } : resolved;
}
