/**
 * The bench report as a plain-text table: throughput against the raw ceiling, time to kill per
 * mutant, the checker, memory, and which targets of the performance budget were met. Pure.
 */
import type { BenchReport, KillFigure, Throughput, Unavailable } from './bench-report.ts';

/** The whole report, lines joined with `\n`. */
export function formatBench(r: BenchReport): string {
  const c = r.config;
  const lines = [
    `receiptcheck bench: ${c.handler} (${c.operation}, ${c.engine === 'postgres' ? 'PostgreSQL' : 'SQLite'}), ${c.quick ? 'quick' : 'full'} (${c.rounds} round${c.rounds === 1 ? '' : 's'} × ${c.runsPerRound} runs, stepsMax ${c.stepsMax}, ${c.workers} workers, seed ${c.seed})`,
    `machine: ${r.machine.nproc} × ${r.machine.cpuModel}, node ${r.machine.node}, ${r.machine.platform}`,
    '',
    ...formatThroughput(r),
    '',
    ...(r.templateCopies === undefined
      ? []
      : [
          `resets: ${r.templateCopies} of the bench's PostgreSQL runs fell back to a new copy of the template (a run changed the schema); every other reset was in place`,
          '',
        ]),
    ...formatKills(r.kills, c.killSeeds),
    '',
    ...(r.prove ? [...formatProve(r.prove, c.killSeeds), ''] : []),
    `checker    ${r.checker.entries.toLocaleString('en-US')} calls from ${r.checker.clients} clients: ${seconds(r.checker.seconds)} median (${r.checker.perRun.map(seconds).join(', ')}), verdict ${[...new Set(r.checker.verdicts)].join('/')}`,
    `soak check ${r.soakCheck.entries.toLocaleString('en-US')} calls from ${r.soakCheck.clients} clients, fresh request ids, in a child process: ${seconds(r.soakCheck.seconds)} (generated in ${seconds(r.soakCheck.generateSeconds)}), maxRSS ${Math.round(r.soakCheck.maxRssMb)} MB, verdict ${r.soakCheck.verdict}`,
    `memory     maxRSS ${Math.round(r.memory.maxRssMb)} MB, peak heap used ${Math.round(r.memory.peakHeapUsedMb)} MB`,
    '',
    'performance budget (docs/performance.md)',
    ...r.targets.map(
      (t) =>
        `  ${t.met === null ? '–' : t.met ? '✓' : '✗'} ${t.figure.padEnd(30)} ${t.target.padEnd(36)} ${t.value}`,
    ),
    '',
    `elapsed ${seconds(r.elapsedSeconds)}`,
  ];
  return lines.join('\n');
}

function formatThroughput(r: BenchReport): string[] {
  const t = r.throughput;
  const rows: [string, Throughput | Unavailable][] = [
    [r.config.engine === 'postgres' ? 'raw (one conn.)' : 'raw (file, WAL)', t.raw],
    ['raw (in memory)', t.rawInMemory],
    ['raw (sched. mix)', t.rawScheduledMix],
    ['sequential', t.sequential],
    ['concurrent', t.concurrent],
    ['scheduled', t.scheduled],
    ['sched., threads', t.scheduledThreads],
    ['async, sequential', t.asyncSequential],
    ['async, scheduled', t.asyncScheduled],
  ];
  const lines = [
    `throughput${'steps/s'.padStart(21)}  ${'× raw'.padStart(6)}  ${'steps/CPU-s'.padStart(11)}  ${'× raw'.padStart(6)}  steps/s per round`,
  ];
  for (const [name, figure] of rows) {
    if (!figure.available) {
      lines.push(`  ${name.padEnd(18)} not available: ${figure.reason}`);
      continue;
    }
    const ratio = (r: number | undefined) => (r === undefined ? '1' : r.toFixed(3)).padStart(6);
    lines.push(
      `  ${name.padEnd(18)} ${integer(figure.stepsPerSecond).padStart(10)}  ${ratio(figure.ratioToRaw)}  ${integer(figure.stepsPerCpuSecond).padStart(11)}  ${ratio(figure.cpuRatioToRaw)}  ${figure.perRound.map(integer).join(' ')}  (${integer(figure.steps)} steps)`,
    );
    if (figure.warning) lines.push(`  ${''.padEnd(18)} note: ${figure.warning}`);
  }
  lines.push(
    '  (× raw: the median over rounds of the speed over raw’s in the same round, on the same',
    '   sequences: scheduled mode, inline and on thread lanes, against raw on its own mix. steps/CPU-s',
    '   divides by the whole process’s CPU time, worker threads and V8’s compiler and GC threads',
    '   included; load from other work on the machine inflates it far less than wall time)',
    'warm-up, untimed: each path until it stopped getting faster; steps/CPU-s of each check',
  );
  for (const [name, figure] of rows) {
    if (!figure.available || !figure.warmUp) continue;
    const w = figure.warmUp;
    lines.push(
      `  ${name.padEnd(18)} ${`${w.checks} checks`.padStart(10)}  ${`${w.cpuSeconds.toFixed(1)} CPU-s`.padStart(10)}  ${w.perCheckCpu.map(integer).join(' ')}`,
    );
  }
  return lines;
}

function formatKills(kills: readonly KillFigure[], seeds: number): string[] {
  const lines = [
    `time to kill, median of seeds 1–${seeds} (a survival counts as infinite)`,
    `  ${'mutant'.padEnd(28)} ${'mode'.padEnd(11)} killed  ${'runs'.padStart(5)}  ${'seconds'.padStart(8)}  shrunk steps`,
  ];
  for (const k of kills) {
    if (!k.available) {
      lines.push(`  ${k.mutant.padEnd(28)} ${k.mode.padEnd(11)} not available: ${k.reason}`);
      continue;
    }
    lines.push(
      `  ${k.mutant.padEnd(28)} ${k.mode.padEnd(11)} ${`${k.killed}/${k.seeds}`.padEnd(6)}  ${orDash(k.runsMedian, (v) => String(v)).padStart(5)}  ${orDash(k.secondsMedian, (v) => v.toFixed(2)).padStart(8)}  ${orDash(k.shrunkStepsMedian, (v) => String(v))}`,
    );
  }
  if (kills.length === 0) lines.push('  (no mutant selected)');
  return lines;
}

function formatProve(p: NonNullable<BenchReport['prove']>, seeds: number): string[] {
  const lines = [
    `prove (≤ ${p.coverage.preemptions} preemptions, once: it is deterministic) against random scheduled mode (median of seeds 1–${seeds})`,
    `  ${'race mutant'.padEnd(36)} ${'prove'.padEnd(28)} random`,
  ];
  for (const k of p.kills) {
    const proved =
      k.verdict === 'failed'
        ? `killed, ${k.preemptions} preempt., ${seconds(k.seconds)}`
        : `${k.verdict === 'held' ? 'held' : 'no verdict'} after ${integer(k.schedules)} sched.`;
    const random = `${orDash(k.randomSecondsMedian, (v) => `${v.toFixed(2)} s`)} (${k.randomKilled}/${k.randomSeeds})`;
    lines.push(`  ${k.mutant.padEnd(36)} ${proved.padEnd(28)} ${random}`);
  }
  if (p.kills.length === 0) lines.push('  (no race mutant selected)');
  const c = p.coverage;
  const share = c.proveDistinct === 0 ? 0 : c.sampledOfProve / c.proveDistinct;
  lines.push(
    `coverage of ${c.handler}'s schedules, ${c.cases} generated cases: prove ran ${integer(c.proveSchedules)} (${integer(c.proveDistinct)} distinct) in ${seconds(c.proveSeconds)}, ${c.verdict};`,
    `  random sampling in the same time on the same cases ran ${integer(c.sampledRuns)}: ${integer(c.sampledDistinct)} distinct, ${integer(c.sampledOfProve)} of prove's (${(share * 100).toFixed(0)}%), ${integer(c.sampledBeyond)} past its bound`,
  );
  return lines;
}

function orDash(value: number | null, show: (v: number) => string): string {
  return value === null ? '—' : show(value);
}

function integer(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function seconds(s: number): string {
  return `${s.toFixed(2)} s`;
}
