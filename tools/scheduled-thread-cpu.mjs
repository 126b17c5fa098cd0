// Where a scheduled check's CPU goes, thread by thread, for the README's performance notes and for
// A/B runs of a change to scheduled mode: `node tools/scheduled-thread-cpu.mjs [LANES [WARM
// [CHECKS [SEED]]]]` (default threads 3 6 1). It runs WARM untimed checks of the reference (300
// runs, stepsMax 20, seeds 1000, 1001, …), then CHECKS timed ones on seeds SEED, SEED+1, …, and
// prints one JSON line: per check its steps, CPU seconds (every thread of the process) and wall
// time, and from /proc the CPU seconds and voluntary context switches of the main thread, of the
// threads started after the tool loaded (the lane workers, and any thread they start), and of
// the helpers that were there before (V8's compiler and collector threads, libuv's). It imports
// the sources beside it, so a copy of another tree (`git archive`) measures that tree: alternate
// the two, separate processes, several rounds. Timing decides the figures: a measurement, never
// a test. The first checks of a process are slower for thousands of runs (V8 tiers up each
// isolate's code on its own), so compare the same WARM only.
import { readdirSync, readFileSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const { checkHandler } = await import('../src/api/check-handler.ts');

const [lanes = 'threads', warmText = '3', checksText = '6', seedText = '1'] = process.argv.slice(2);
const TICKS_PER_SECOND = 100;

/** CPU seconds and voluntary context switches of every thread of this process, by thread id. */
function threads() {
  const out = new Map();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const status = readFileSync(`/proc/self/task/${tid}/status`, 'utf8');
      const switches = Number(/\nvoluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const cpu = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
      out.set(tid, { cpu, switches });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

const preexisting = new Set(threads().keys());
const kindOf = (tid) =>
  tid === String(process.pid) ? 'main' : preexisting.has(tid) ? 'helpers' : 'started';
const options = (seed) => ({
  handler: 'reference',
  mode: 'scheduled',
  lanes,
  runs: 300,
  stepsMax: 20,
  seed,
});

for (let i = 0; i < Number(warmText); i++) await checkHandler(options(1000 + i));
const checks = [];
for (let i = 0; i < Number(checksText); i++) {
  const before = threads();
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const result = await checkHandler(options(Number(seedText) + i));
  const wall = (performance.now() - wallBefore) / 1000;
  const cpuUsed = process.cpuUsage(cpuBefore);
  const by = {};
  for (const [tid, now] of threads()) {
    const kind = kindOf(tid);
    const was = before.get(tid) ?? { cpu: 0, switches: 0 };
    by[kind] ??= { cpu: 0, switches: 0 };
    by[kind].cpu += now.cpu - was.cpu;
    by[kind].switches += now.switches - was.switches;
  }
  const cpu = (cpuUsed.user + cpuUsed.system) / 1e6;
  checks.push({ runs: result.runs, steps: result.steps, verdict: result.verdict, cpu, wall, by });
}
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(JSON.stringify({ lanes, warm: Number(warmText), load, checks }));
