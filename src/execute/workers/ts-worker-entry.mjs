// Entry for every receiptcheck thread pool, and for the checker's child process: imports the
// worker module named in workerData.tsEntry (a thread) or in argv[2] (a child process). When that
// module is TypeScript (receiptcheck running from its sources, from the CLI or from a vitest run)
// it registers the checkout's loader first (`checkout-loader.mjs`), which also lets TypeScript
// plugins load. From the build the module is JavaScript and no loader is registered here.
import { isMainThread, workerData } from 'node:worker_threads';
import { registerCheckoutLoader } from './checkout-loader.mjs';

const tsEntry = isMainThread ? process.argv[2] : workerData.tsEntry;
if (new URL(tsEntry).pathname.endsWith('.ts')) await registerCheckoutLoader();
const mod = await import(tsEntry);
export default mod.default;
