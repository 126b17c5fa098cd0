// Entry for every receiptcheck thread pool, and for the checker's child process: imports the
// worker module named in workerData.tsEntry (a thread) or in argv[2] (a child process). When that
// module is TypeScript (receiptcheck running from its sources, from the CLI or from a vitest run)
// it registers tsx first, for CommonJS and ES modules as bin/receiptcheck.js does, which also
// lets TypeScript plugins load, in a `"type": "commonjs"` project too. From the build the module
// is JavaScript and tsx is not loaded here: it costs each thread time and memory, and load-plugin
// imports a TypeScript plugin through tsx's tsImport only when one comes.
import { isMainThread, workerData } from 'node:worker_threads';

const tsEntry = isMainThread ? process.argv[2] : workerData.tsEntry;
if (new URL(tsEntry).pathname.endsWith('.ts')) {
  const [{ register: registerCommonJs }, { register }] = await Promise.all([
    import('tsx/cjs/api'),
    import('tsx/esm/api'),
  ]);
  registerCommonJs();
  register();
}
const mod = await import(tsEntry);
export default mod.default;
