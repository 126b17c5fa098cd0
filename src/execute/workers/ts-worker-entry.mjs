// Entry for every receiptcheck thread pool, and for the checker's child process: imports the
// worker module named in workerData.tsEntry (a thread) or in argv[2] (a child process). When that
// module is TypeScript (receiptcheck running from its sources, from the CLI or from a vitest run)
// it registers tsx first (`register-tsx.mjs`), which also lets TypeScript plugins load. From the
// build the module is JavaScript and tsx is not loaded here.
import { isMainThread, workerData } from 'node:worker_threads';
import { registerTsx } from './register-tsx.mjs';

const tsEntry = isMainThread ? process.argv[2] : workerData.tsEntry;
if (new URL(tsEntry).pathname.endsWith('.ts')) await registerTsx();
const mod = await import(tsEntry);
export default mod.default;
