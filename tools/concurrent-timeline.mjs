// Where a concurrent run's wall time goes, for the README's performance notes and for A/B runs of a
// change to concurrent execution: `node tools/concurrent-timeline.mjs [RUNS [STEPS_MAX [SEED
// [WARM]]]]` (default 2000 8 1 500). It draws RUNS cases of the reference's check (seed SEED,
// at most STEPS_MAX steps), runs WARM of them untimed on the concurrent runner (4 workers), then
// times every case and prints one JSON line: the wall time of a run, when its first operation
// started and its last ended (ms from the run's start, as its history records them), and for
// every group that follows a plain step, the gap from that step's end to the group's first start
// and the spread of its lanes' starts (10th, 50th and 90th percentiles). A run's remainder after
// its last operation is the reply, the snapshot and the judge. Timing decides the figures: a
// measurement, never a test; compare variants interleaved, minutes apart at most.
import { register } from 'tsx/esm/api';

register();
const fc = (await import('fast-check')).default;
const { resolveOptions } = await import('../src/api/options.ts');
const { prepareRun } = await import('../src/api/prepare-run.ts');
const { destroyIdlePool } = await import('../src/execute/sqlite/concurrent/warm-pool.ts');

const [runsText = '2000', stepsText = '8', seedText = '1', warmText = '500'] =
  process.argv.slice(2);
const runs = Number(runsText);
const seed = Number(seedText);
const resolved = resolveOptions({ handler: 'reference', seed, runs, stepsMax: Number(stepsText) });
const { runner, plugin } = await prepareRun({ ...resolved, mode: 'concurrent' });
const cases = fc.sample(
  runner.caseArbitrary({
    stepsMax: resolved.stepsMax,
    races: true,
    recreate: typeof plugin.recreate === 'function',
    excludeInputClasses: resolved.excludeInputClasses,
  }),
  { seed, numRuns: runs },
);
const quantiles = (xs) =>
  [0.1, 0.5, 0.9].map((q) =>
    Number((xs.sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))] ?? 0).toFixed(3)),
  );
const mean = (xs) => Number((xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)).toFixed(3));
const ran = (entry) =>
  entry.completedAt !== undefined &&
  !(entry.event.kind === 'call' && entry.event.delivery === 'lostRequest');

const wall = [];
const firstStart = [];
const lastEnd = [];
const gaps = [];
const spreads = [];
try {
  for (const c of cases.slice(0, Number(warmText))) await runner.execute(c.steps, c.replay);
  for (const c of cases) {
    const started = performance.now();
    const run = await runner.execute(c.steps, c.replay);
    const ms = performance.now() - started;
    const detail = run.detail;
    if (detail?.mode !== 'concurrent') continue;
    const done = detail.history.filter(ran);
    if (done.length === 0) continue;
    wall.push(ms);
    firstStart.push(Math.min(...done.map((e) => e.invokedAt)));
    lastEnd.push(Math.max(...done.map((e) => e.completedAt)));
    const atStep = (step) => done.filter((e) => detail.places[e.id].step === step);
    for (let step = 1; step < c.steps.length; step++) {
      if (c.steps[step].kind !== 'concurrent' || c.steps[step - 1].kind === 'concurrent') continue;
      const before = atStep(step - 1);
      const group = atStep(step);
      if (before.length === 0 || group.length < 2) continue;
      const starts = group.map((e) => e.invokedAt);
      gaps.push(Math.min(...starts) - before[0].completedAt);
      spreads.push(Math.max(...starts) - Math.min(...starts));
    }
  }
} finally {
  await runner.close();
  await destroyIdlePool();
}
console.log(
  JSON.stringify({
    seed,
    stepsMax: resolved.stepsMax,
    runs: wall.length,
    msPerRun: mean(wall),
    firstStartMs: mean(firstStart),
    lastEndMs: mean(lastEnd),
    groups: gaps.length,
    gapMs: quantiles(gaps),
    spreadMs: quantiles(spreads),
  }),
);
