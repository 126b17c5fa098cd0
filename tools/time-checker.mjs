// Times the linearizability checker on a synthetic history, in this process, for the README's
// performance notes: `node tools/time-checker.mjs ENTRIES CLIENTS [REQUEST_ID_POOL [TIME_LIMIT_MS]]`
// (the check's wall-clock budget, default the checker's 10,000: raise it on a loaded machine). A large pool
// (1000000000) gives a soak's shape, where nearly every intent mints a fresh request id and the
// model's receipts grow with the history; the default 256 is the bench's checker history.
// The bench's soak child runs with `CHECKER_CHILD_FLAGS` (src/execute/checker-thread.ts): for its
// memory figure run `node --max-old-space-size=1536 tools/time-checker.mjs 1000000 16 1000000000`.
import { register } from 'tsx/esm/api';

register();
const { syntheticHistory } = await import('../src/check/linearizability/synthetic-history.ts');
const { checkHistory } = await import('../src/check/linearizability/check-history.ts');
const [entries = 100000, clients = 8, requestIdPool = 256, timeLimitMs = 10_000] = process.argv
  .slice(2)
  .map(Number);
const generating = performance.now();
const generatingCpu = process.cpuUsage();
const { initial, history } = syntheticHistory({ seed: 1, entries, clients, requestIdPool });
const generatedS = (performance.now() - generating) / 1000;
const generatedCpu = process.cpuUsage(generatingCpu);
const historyRssMb = Math.round(process.memoryUsage().rss / 1e6);
const cpu = process.cpuUsage();
const checking = performance.now();
const { verdict } = checkHistory(initial, history, { timeLimitMs });
const checkS = (performance.now() - checking) / 1000;
const used = process.cpuUsage(cpu);
console.log(
  JSON.stringify({
    entries,
    clients,
    requestIdPool,
    verdict,
    generatedS,
    generatedCpuS: (generatedCpu.user + generatedCpu.system) / 1e6,
    historyRssMb,
    checkS,
    checkCpuS: (used.user + used.system) / 1e6,
    rssMb: Math.round(process.memoryUsage().rss / 1e6),
    // resourceUsage().maxRSS is in kilobytes: the peak over generation and check.
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
