/**
 * Worker side of `timeCheckerInThread` and `timeCheckerInChild`: generates the synthetic
 * history, times one check of it, posts `{seconds, generateSeconds, verdict, maxRssMb}` (or
 * `{error}`) and ends. Started through `ts-worker-entry.mjs`, as a thread (the job in
 * `workerData`) or as a child process (the job as JSON in `argv[3]`, the reply over IPC).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { checkHistory } from '../../check/linearizability/check-history.ts';
import { syntheticHistory } from '../../check/linearizability/synthetic-history.ts';
import { messageOf } from '../../errors.ts';
import type { CheckerJob, CheckerReply } from '../checker-thread.ts';

const job = (parentPort ? workerData : JSON.parse(process.argv[3] ?? '{}')) as CheckerJob;
let reply: CheckerReply;
try {
  const generating = performance.now();
  const { initial, history } = syntheticHistory({
    seed: job.seed,
    entries: job.entries,
    clients: job.clients,
    ...(job.requestIdPool !== undefined ? { requestIdPool: job.requestIdPool } : {}),
  });
  const started = performance.now();
  const result = checkHistory(
    initial,
    history,
    job.timeLimitMs !== undefined ? { timeLimitMs: job.timeLimitMs } : {},
  );
  reply = {
    seconds: (performance.now() - started) / 1000,
    generateSeconds: (started - generating) / 1000,
    verdict: result.verdict,
    // resourceUsage().maxRSS is in kilobytes.
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
} catch (thrown) {
  reply = { error: messageOf(thrown) };
}
if (parentPort) parentPort.postMessage(reply);
else process.send?.(reply, () => process.disconnect());
