// Worker entry for every receiptcheck thread pool. Registers tsx so that the TypeScript worker
// module (named in workerData.tsEntry) and any TypeScript handler plugin load inside the worker,
// whether the pool was started by the CLI or from a vitest run.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const mod = await import(workerData.tsEntry);
export default mod.default;
