// Entry for every receiptcheck thread pool, and for the checker's child process: imports the
// worker module named in workerData.tsEntry (a thread) or in argv[2] (a child process). When that
// module is TypeScript (receiptcheck running from its sources, from the CLI or from a vitest run)
// it is imported from the checkout's build when one is named, with no loader; otherwise the
// checkout's loader (`checkout-loader.mjs`) is registered first, which also lets TypeScript
// plugins load. From the build the module is JavaScript and no loader is registered here.
import { isMainThread, workerData } from 'node:worker_threads';
import { checkoutEntry } from './checkout-loader.mjs';

const tsEntry = isMainThread ? process.argv[2] : workerData.tsEntry;
const entry = new URL(tsEntry).pathname.endsWith('.ts') ? await checkoutEntry(tsEntry) : tsEntry;
const mod = await import(entry);
export default mod.default;
