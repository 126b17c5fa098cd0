/**
 * Worker side of `timeCheckerInThread`: generates the synthetic history, times one check of it,
 * posts `{seconds, verdict}` (or `{error}`) and ends. Started through `ts-worker-entry.mjs`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { checkHistory } from '../../check/linearizability/check-history.ts';
import { syntheticHistory } from '../../check/linearizability/synthetic-history.ts';
import { messageOf } from '../../errors.ts';
import type { CheckerJob, CheckerReply } from '../checker-thread.ts';

const job = workerData as CheckerJob & { tsEntry: string };
let reply: CheckerReply;
try {
  const { initial, history } = syntheticHistory({
    seed: job.seed,
    entries: job.entries,
    clients: job.clients,
  });
  const started = performance.now();
  const result = checkHistory(initial, history);
  reply = { seconds: (performance.now() - started) / 1000, verdict: result.verdict };
} catch (thrown) {
  reply = { error: messageOf(thrown) };
}
parentPort?.postMessage(reply);
