// How often concurrent mode's groups really overlap, for the README's performance notes and for
// A/B runs of a change to concurrent execution: `node tools/concurrent-overlap.mjs [HANDLER [SEED
// [RUNS [WORKERS]]]]` (default reference 1 300 4). It runs the check's own cases (same seed, same
// order) through the concurrent runner and judge, and reads each run's history: a group of two or
// more operations that reached a worker "overlapped" when one instant lies inside every interval
// (latest invocation before earliest return), and a pair when its two intervals intersect;
// startSkewMs and durationMs are the 10th, 50th and 90th percentiles of a group's spread of
// invocations and of its operations' durations. Also prints the CPU seconds (every thread of the
// process, and from /proc: the main thread, the threads the runner started (its workers and
// theirs), and the helpers that were there before) and wall time of the runs,
// and how many runs failed (a mutant's kills). Timing decides the figures: a measurement, never a
// test; compare variants interleaved, on the same seeds, minutes apart at most.
import { register } from 'tsx/esm/api';

register();
const fc = (await import('fast-check')).default;
const { resolveOptions } = await import('../src/api/options.ts');
const { prepareRun } = await import('../src/api/prepare-run.ts');
const { destroyIdlePool } = await import('../src/execute/sqlite/concurrent/warm-pool.ts');

const [handler = 'reference', seedText = '1', runsText = '300', workersText = '4'] =
  process.argv.slice(2);
const seed = Number(seedText);
const runs = Number(runsText);
// CPU per thread from /proc (Linux): the main thread, the pool's workers, and the rest.
const { readdirSync, readFileSync } = await import('node:fs');
const threadTicks = () => {
  const ticks = new Map();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(tid, { comm, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {}
  }
  return ticks;
};
// Threads that exist before the runner starts: the main thread and V8's and libuv's helpers.
const preexisting = new Set(threadTicks().keys());
const resolved = resolveOptions({ handler, seed, runs, workers: Number(workersText) });
const { runner, plugin } = await prepareRun({ ...resolved, mode: 'concurrent' });
const arbitrary = runner.caseArbitrary({
  stepsMax: resolved.stepsMax,
  races: true,
  recreate: typeof plugin.recreate === 'function',
  excludeInputClasses: resolved.excludeInputClasses,
});
// The batches `api/explore.ts` draws (its `batchSize`), so these are the check's own cases.
const cases = [];
while (cases.length < runs) {
  const index = cases.length;
  const numRuns = Math.min(runs - index, Math.max(64, Math.min(5_000, Math.floor(index / 50))));
  cases.push(...fc.sample(arbitrary, { seed, path: String(index), numRuns }));
}

let groups = 0;
let overlapped = 0;
let pairs = 0;
let pairsOverlapped = 0;
let failed = 0;
let firstFailure;
let steps = 0;
const skews = [];
const durations = [];
const quantiles = (xs) =>
  [0.1, 0.5, 0.9].map((q) =>
    Number((xs.sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))] ?? 0).toFixed(3)),
  );
const ticksBefore = threadTicks();
let ticksAfter = ticksBefore;
const cpu = process.cpuUsage();
const wall = performance.now();
try {
  for (const [index, c] of cases.entries()) {
    steps += c.steps.length;
    const run = await runner.execute(c.steps, c.replay);
    if (run.verdict.verdict === 'failed') {
      failed++;
      firstFailure ??= index;
    }
    const detail = run.detail;
    if (detail?.mode !== 'concurrent') continue;
    const byStep = new Map();
    for (const entry of detail.history) {
      // A lost request never ran; a lost response's return is not in the history.
      if (entry.completedAt === undefined) continue;
      if (entry.event.kind === 'call' && entry.event.delivery === 'lostRequest') continue;
      const place = detail.places[entry.id];
      const list = byStep.get(place.step) ?? [];
      list.push({ start: entry.invokedAt, end: entry.completedAt });
      byStep.set(place.step, list);
    }
    for (const [step, list] of byStep) {
      if (c.steps[step]?.kind !== 'concurrent' || list.length < 2) continue;
      groups++;
      const starts = list.map((x) => x.start);
      skews.push(Math.max(...starts) - Math.min(...starts));
      for (const x of list) durations.push(x.end - x.start);
      const latestStart = Math.max(...list.map((x) => x.start));
      const earliestEnd = Math.min(...list.map((x) => x.end));
      if (latestStart < earliestEnd) overlapped++;
      for (let i = 0; i < list.length; i++)
        for (let j = i + 1; j < list.length; j++) {
          pairs++;
          const a = list[i];
          const b = list[j];
          if (a.start < b.end && b.start < a.end) pairsOverlapped++;
        }
    }
  }
  ticksAfter = threadTicks();
} finally {
  await runner.close();
  await destroyIdlePool();
}
const used = process.cpuUsage(cpu);
const byThread = { main: 0, pool: 0, helpers: 0 };
for (const [tid, t] of ticksAfter) {
  const spent = (t.ticks - (ticksBefore.get(tid)?.ticks ?? 0)) / 100;
  const kind = tid === String(process.pid) ? 'main' : preexisting.has(tid) ? 'helpers' : 'pool';
  byThread[kind] = Number((byThread[kind] + spent).toFixed(2));
}
const cpuS = (used.user + used.system) / 1e6;
const wallS = (performance.now() - wall) / 1000;
console.log(
  JSON.stringify({
    handler,
    seed,
    runs,
    steps,
    failed,
    firstFailure,
    groups,
    overlapped,
    overlapFraction: Number((overlapped / groups).toFixed(3)),
    pairs,
    pairsOverlapped,
    pairFraction: Number((pairsOverlapped / pairs).toFixed(3)),
    startSkewMs: quantiles(skews),
    durationMs: quantiles(durations),
    cpuS: Number(cpuS.toFixed(2)),
    byThread,
    wallS: Number(wallS.toFixed(2)),
    cpuMsPerRun: Number(((cpuS * 1000) / runs).toFixed(2)),
    stepsPerCpuS: Math.round(steps / cpuS),
    load: (await import('node:os'))
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' '),
  }),
);
