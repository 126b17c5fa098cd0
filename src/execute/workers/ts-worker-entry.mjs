// Worker entry for every receiptcheck thread pool: imports the worker module named in
// workerData.tsEntry. When that module is TypeScript (receiptcheck running from its sources, from
// the CLI or from a vitest run) it registers tsx first, which also lets TypeScript plugins load.
// From the build the module is JavaScript and tsx is not loaded here: it costs each thread time and
// memory, and load-plugin imports a TypeScript plugin through tsx's tsImport only when one comes.
import { workerData } from 'node:worker_threads';

if (new URL(workerData.tsEntry).pathname.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
const mod = await import(workerData.tsEntry);
export default mod.default;
