/**
 * The summary printed after every `receiptcheck run`: handler, mode, seed (and how to set it),
 * runs, steps, events covered per kind, input classes reached, the operation's edges, answers
 * and conflicting groups, each mode's share of the runs, elapsed time and the verdict.
 * Pure.
 */

import { COVERAGE_KINDS, type CoverageKind } from '../types/coverage.ts';
import { type InputCoverage, inputOf } from '../types/input-coverage.ts';
import { SEED_ENV } from '../types/options.ts';
import type { ReproductionSearch } from '../types/replay.ts';
import type { CheckResult } from '../types/results.ts';
import { formatOperationCoverage, formatSplit } from './format-operation-coverage.ts';

/** What the summary adds to the result: the seed the user asked for, and the limit that stopped it. */
export interface SummaryContext {
  /** The seed before sharding (`result.seed` is the shard's own when sharded). */
  readonly baseSeed?: number;
  readonly timeLimitSeconds?: number;
  /** The counterexample file written, if any. */
  readonly savedPath?: string;
  /** For a concurrent counterexample: what the search for its scheduled reproduction found. */
  readonly reproduction?: ReproductionSearch;
}

/** The summary as lines joined with `\n`. */
export function formatSummary(r: CheckResult, context: SummaryContext = {}): string {
  const base = context.baseSeed ?? r.seed;
  const shard = r.shard
    ? `; shard ${r.shard.index}/${r.shard.count} runs with its own seed ${r.seed}, derived from it`
    : '';
  const lines = [
    `receiptcheck: ${r.handlerName}${r.handler !== r.handlerName ? ` (${r.handler})` : ''} in ${modesText(r)}`,
    r.seeds
      ? `  seeds     ${r.seeds.join(', ')} (each with its own ${r.runsPlanned / r.seeds.length} runs)`
      : `  seed      ${base} (set with --seed or ${SEED_ENV}${shard})`,
    `  runs      ${r.runs} of ${r.runsPlanned}, ${r.steps} steps, ${formatElapsed(r.elapsedMs)}`,
  ];
  if (r.timedOut)
    lines.push(
      `  stopped   by the time limit${context.timeLimitSeconds ? ` of ${context.timeLimitSeconds} s` : ''} after ${r.runs} of ${r.runsPlanned} runs; what ran is reported`,
    );
  // In a failing run the few runs before the failure say little about coverage: list only what ran.
  lines.push(...formatCoverage(r.coverage, r.verdict === 'passed'));
  lines.push(...formatInputCoverage(r.inputCoverage, r.verdict === 'passed'));
  if (r.operationCoverage && r.verdict === 'passed')
    lines.push(...formatOperationCoverage(r.operationCoverage));
  if (r.split) lines.push(formatSplit(r.split));
  if (r.steps === 0)
    lines.push('  warning   no steps ran, so nothing was checked: raise --runs or --steps-max');
  lines.push(`  verdict   ${verdictLine(r)}`);
  if (context.savedPath) lines.push(`  saved     ${context.savedPath}`);
  if (context.reproduction) lines.push(`            ${describeReproduction(context.reproduction)}`);
  return lines.join('\n');
}

/**
 * Whether a counterexample's saved scheduled reproduction replays the same way every time: one
 * was found, and the server did not choose the order of its run (`serverOrdered`).
 */
export function reproducesDeterministically(search: ReproductionSearch | undefined): boolean {
  return search?.found === true && search.reproduction.serverOrdered !== true;
}

/** One line on a concurrent counterexample's scheduled reproduction: found (and saved), or not. */
export function describeReproduction(search: ReproductionSearch): string {
  if (search.found) {
    const r = search.reproduction;
    const found = `schedule ${r.foundAt} of a search of at most ${r.schedulesMax} reproduces it in scheduled mode, saved with it`;
    return r.serverOrdered
      ? `${found}; PostgreSQL chose which of the lanes waiting on one lock went first in that run, so a replay of it may take another path`
      : `replays deterministically: ${found}`;
  }
  if (search.error !== undefined)
    return `no scheduled reproduction saved: the search stopped after ${search.schedules} schedule(s): ${search.error}`;
  return `no schedule of ${search.schedules} reproduced it in scheduled mode: its replay depends on timing, and reports "not reproduced", never "held", while it passes`;
}

/** Why a kind goes unseen in any run of some plugins: drawn only for what they declare. */
const WHY_UNSEEN: Partial<Record<CoverageKind, string>> = {
  recreate: 'drawn only for a plugin with a recreate function',
};

/** Events per kind, five to a line; with `listMissing`, kinds never exercised are named too. */
export function formatCoverage(
  coverage: Readonly<Record<string, number>>,
  listMissing = true,
): string[] {
  const seen = COVERAGE_KINDS.filter((k) => (coverage[k] ?? 0) > 0).map(
    (k) => `${k} ${coverage[k]}`,
  );
  const lines: string[] = [];
  for (let i = 0; i < seen.length; i += 5)
    lines.push(`${i === 0 ? '  events    ' : '            '}${seen.slice(i, i + 5).join(' · ')}`);
  if (lines.length === 0) lines.push('  events    none');
  const missing = COVERAGE_KINDS.filter((k) => !((coverage[k] ?? 0) > 0)).map((k) => {
    const why = WHY_UNSEEN[k];
    return why ? `${k} (${why})` : k;
  });
  if (listMissing && missing.length > 0) lines.push(`  not seen  ${missing.join(', ')}`);
  return lines;
}

/** Most warning lines for unreached input classes; the rest are counted on one more line. */
const WARNINGS_MAX = 6;
/** Where input class counts wrap. */
const LINE_WIDTH = 100;

/**
 * Calls per input class, grouped by input, and a warning line for each class never reached: a
 * green run that never sent, say, a 64-character request id says nothing about one. A failing
 * run stopped early, so it only says how many classes its runs reached.
 */
export function formatInputCoverage(coverage: InputCoverage, passed = true): string[] {
  const classes = Object.keys(coverage);
  const reached = classes.filter((c) => (coverage[c] ?? 0) > 0);
  if (!passed)
    return [
      `  inputs    ${reached.length} of ${classes.length} input classes reached before the failure`,
    ];
  const lines: string[] = [];
  const inputs = [...new Set(classes.map(inputOf))];
  const labelWidth = Math.max(...inputs.map((i) => i.length)) + 2;
  for (const input of inputs) {
    const items = reached
      .filter((c) => inputOf(c) === input)
      .map((c) => `${c.slice(input.length + 1)} ${coverage[c]}`);
    let line = `${lines.length === 0 ? '  inputs    ' : '            '}${input.padEnd(labelWidth)}`;
    const indent = ' '.repeat(line.length);
    let first = true;
    for (const item of items.length > 0 ? items : ['none']) {
      if (!first && line.length + 3 + item.length > LINE_WIDTH) {
        lines.push(line);
        line = `${indent}${item}`;
      } else line += `${first ? '' : ' · '}${item}`;
      first = false;
    }
    lines.push(line);
  }
  const unreached = classes.filter((c) => !((coverage[c] ?? 0) > 0));
  for (const c of unreached.slice(0, WARNINGS_MAX))
    lines.push(`  warning   input class never reached: ${c}`);
  if (unreached.length > WARNINGS_MAX)
    lines.push(
      `  warning   ${unreached.length - WARNINGS_MAX} more input classes never reached (all counts: --json, inputCoverage)`,
    );
  return lines;
}

function verdictLine(r: CheckResult): string {
  if (r.findings) {
    const fresh = r.findings.filter((f) => !f.known).length;
    const all = `${r.findings.length} distinct finding(s), ${r.findings.length - fresh} known`;
    if (fresh > 0) return `FAILED: ${fresh} new finding(s) among ${all}`;
    if (r.findings.length > 0) return `PASSED: no new finding; ${all} (listed above)`;
  }
  if (r.verdict === 'passed')
    return `PASSED: the handler held the contract on every run${r.timedOut ? ' that ran' : ''}`;
  const cx = r.counterexample;
  const where = r.modes.length > 1 && cx ? ` of ${cx.mode} mode` : '';
  return `FAILED: counterexample of ${cx?.steps.length ?? '?'} step(s) found at run ${cx?.runsToFailure ?? '?'}${where}`;
}

/** `850 ms` or `12.3 s`. */
export function formatElapsed(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** `sequential mode`, or `sequential + scheduled modes` for a run that explored several. */
function modesText(r: CheckResult): string {
  return r.modes.length > 1 ? `${r.modes.join(' + ')} modes` : `${r.mode} mode`;
}
