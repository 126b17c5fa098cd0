// Module hooks (`checkout-loader.mjs`) that load a checkout's sources from a build of them: a
// module resolved to a `.ts` file under `src/` resolves to the build's `.js` of it instead, so
// every importer in the thread (the harness, a fixture plugin, a user's plugin importing the
// sources) gets one copy, the build's. Files outside `src/` resolve as they would.

let src = '';
let dist = '';

/** `data`: the sources' folder URL and the build's `dist/` URL, both ending in a slash. */
export function initialize(data) {
  src = data.src;
  dist = data.dist;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const url = new URL(resolved.url);
  if (url.protocol !== 'file:' || !url.pathname.endsWith('.ts')) return resolved;
  // Without any query a loader added, so the build's copy is the one.
  const plain = `file://${url.pathname}`;
  if (!plain.startsWith(src)) return resolved;
  return {
    url: `${dist}${plain.slice(src.length, -'.ts'.length)}.js`,
    format: 'module',
    shortCircuit: true,
  };
}
