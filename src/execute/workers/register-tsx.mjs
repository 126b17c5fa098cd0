// Registers tsx for both of Node's module systems, as the tsx command does, where receiptcheck
// runs from its TypeScript sources (a checkout: the command, a worker thread, the checker's
// child process). In a `"type": "commonjs"` project (what `npm init -y` writes) a `.ts` plugin is
// CommonJS, and tsx's CommonJS hook is what compiles its import syntax; with the ES module hook
// alone Node fails it as a require(esm) cycle. From the build nothing calls this: tsx's hooks slow
// every module a thread loads, and load-plugin imports a TypeScript plugin through tsx's
// tsImport only when one comes.

/** Loads tsx and registers its CommonJS and ES module hooks in this thread. */
export async function registerTsx() {
  const [{ register: registerCommonJs }, { register }] = await Promise.all([
    import('tsx/cjs/api'),
    import('tsx/esm/api'),
  ]);
  registerCommonJs();
  register();
}
