/**
 * The project's performance budget (docs/performance.md), judged against one bench report: every
 * target one run of one operation can show (the per-operation ratios take a run per operation).
 * Benchmark figures, not test assertions: the bench reports which are met and never fails on
 * them. Ratios are judged on steps per second, as the budget states them; the per-CPU-second
 * ratio is shown beside. Pure.
 */
import type { BenchReport, TargetCheck, Throughput, Unavailable } from './bench-report.ts';

/**
 * The ratios to raw each path should reach. Scheduled mode's is for inline lanes, which the
 * bench's handler (the reference, replayable) runs on; thread lanes, which every handler not
 * declared replayable runs on, are asked 0.15.
 */
export const RATIO_TARGETS = {
  sequential: 0.7,
  concurrent: 0.3,
  scheduled: 0.3,
  scheduledThreads: 0.15,
  asyncSequential: 0.5,
  asyncScheduled: 0.25,
} as const;

/**
 * On PostgreSQL, where every call is a round trip to the server and every run needs a reset of a
 * real database, the budget asks less of sequential mode and more of concurrent mode (whose lanes
 * really overlap on the server); scheduled mode is asked the same.
 */
export const POSTGRES_RATIO_TARGETS = {
  sequential: 0.6,
  concurrent: 0.5,
  scheduled: 0.3,
  scheduledThreads: 0.15,
  // The async reference is a SQLite handler: on PostgreSQL these paths are reported unavailable.
  asyncSequential: 0.5,
  asyncScheduled: 0.25,
} as const;

/** The most seconds a PostgreSQL mutant's median time to kill may take. */
export const POSTGRES_KILL_SECONDS_MAX = 1;

/** How each ratio's row is named. */
const RATIO_FIGURES: Record<keyof typeof RATIO_TARGETS, string> = {
  sequential: 'sequential',
  concurrent: 'concurrent',
  scheduled: 'scheduled',
  scheduledThreads: 'scheduled, thread lanes',
  asyncSequential: 'async reference, sequential',
  asyncScheduled: 'async reference, scheduled',
};

/** The most seconds a mutant's median time to kill may take. */
export const KILL_SECONDS_MAX = 0.5;

/** The most seconds the checker may take on the target's history. */
export const CHECKER_SECONDS_MAX = 2;

/** Calls in the history the checker target is stated for. */
export const CHECKER_ENTRIES = 100_000;
/** Clients in that history. */
export const CHECKER_CLIENTS = 8;

/** The bench's peak memory limit, in megabytes. */
export const MEMORY_MB_MAX = 500;

/** Calls in the history the soak target is stated for. */
export const SOAK_ENTRIES = 1_000_000;
/** Clients in that history. */
export const SOAK_CLIENTS = 16;
/** The most seconds its check may take. */
export const SOAK_SECONDS_MAX = 10;
/** The most memory (the child process's maxRSS, generation included) it may take, in MB. */
export const SOAK_MEMORY_MB_MAX = 1000;

/** Every target with this report's value and whether it was met. */
export function checkTargets(report: Omit<BenchReport, 'targets'>): TargetCheck[] {
  const t = report.throughput;
  const pg = report.config.engine === 'postgres';
  const ratios = pg ? POSTGRES_RATIO_TARGETS : RATIO_TARGETS;
  const killMax = pg ? POSTGRES_KILL_SECONDS_MAX : KILL_SECONDS_MAX;
  const checks: TargetCheck[] = [
    ratioTarget('sequential', t.sequential, ratios),
    ratioTarget('concurrent', t.concurrent, ratios),
    ratioTarget('scheduled', t.scheduled, ratios),
    ratioTarget('scheduledThreads', t.scheduledThreads, ratios),
    ratioTarget('asyncSequential', t.asyncSequential, ratios),
    ratioTarget('asyncScheduled', t.asyncScheduled, ratios),
  ];
  const measured = report.kills.filter((k) => k.available);
  const slowest = [...measured].sort(
    (a, b) => (b.secondsMedian ?? Infinity) - (a.secondsMedian ?? Infinity),
  )[0];
  const missing = report.kills.length - measured.length;
  checks.push({
    figure: 'time to kill (worst median)',
    target: `≤ ${killMax} s for every mutant`,
    value: slowest
      ? `${slowest.secondsMedian === null ? 'survived' : `${slowest.secondsMedian.toFixed(2)} s`} (${slowest.mutant})${missing ? `; ${missing} not measured` : ''}`
      : 'no mutant measured',
    met: killTargetMet(
      measured.map((k) => k.secondsMedian),
      missing,
      killMax,
    ),
  });
  const c = report.checker;
  checks.push({
    figure: `checker, ${c.entries.toLocaleString('en-US')}-call history`,
    target: `≤ ${CHECKER_SECONDS_MAX} s (100,000 calls, 8 clients)`,
    value: `${c.seconds.toFixed(2)} s`,
    // A smaller history (a tiny configuration) says nothing about the target.
    met:
      c.entries < CHECKER_ENTRIES || c.clients !== CHECKER_CLIENTS
        ? null
        : c.verdicts.every((v) => v === 'ok') && c.seconds <= CHECKER_SECONDS_MAX,
  });
  const s = report.soakCheck;
  checks.push({
    figure: `soak check, ${s.entries.toLocaleString('en-US')} calls`,
    target: `≤ ${SOAK_SECONDS_MAX} s, < ${SOAK_MEMORY_MB_MAX} MB (1,000,000 calls, 16 clients)`,
    value: `${s.seconds.toFixed(2)} s, ${Math.round(s.maxRssMb)} MB, ${s.verdict}`,
    // As for the checker: a smaller history (quick, or a tiny configuration) is not judged.
    met:
      s.entries < SOAK_ENTRIES || s.clients !== SOAK_CLIENTS
        ? null
        : s.verdict === 'ok' && s.seconds <= SOAK_SECONDS_MAX && s.maxRssMb < SOAK_MEMORY_MB_MAX,
  });
  checks.push({
    figure: 'peak memory (maxRSS)',
    target: `< ${MEMORY_MB_MAX} MB`,
    value: `${Math.round(report.memory.maxRssMb)} MB`,
    met: report.memory.maxRssMb < MEMORY_MB_MAX,
  });
  return checks;
}

/** False when any measured median misses; null when none fails but some were not measured. */
function killTargetMet(
  medians: readonly (number | null)[],
  missing: number,
  maxSeconds: number,
): boolean | null {
  if (medians.some((m) => m === null || m > maxSeconds)) return false;
  return missing > 0 || medians.length === 0 ? null : true;
}

function ratioTarget(
  mode: keyof typeof RATIO_TARGETS,
  figure: Throughput | Unavailable,
  targets: Record<keyof typeof RATIO_TARGETS, number>,
): TargetCheck {
  const target = `≥ ${targets[mode]} × raw`;
  const name = RATIO_FIGURES[mode];
  if (!figure.available) return { figure: name, target, value: 'not available', met: null };
  const ratio = figure.ratioToRaw ?? 0;
  const cpu =
    figure.cpuRatioToRaw === undefined ? '' : ` (${figure.cpuRatioToRaw.toFixed(2)} per CPU-s)`;
  return {
    figure: name,
    target,
    value: `${ratio.toFixed(2)} × raw${cpu}`,
    met: ratio >= targets[mode],
  };
}
