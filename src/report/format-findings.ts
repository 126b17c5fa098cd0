/**
 * Renders an all-findings check for people: one entry per distinct finding (new or known, its
 * rule, shape, count, id, note, case file and timeline page), then each new finding's counterexample in full.
 * Pure.
 */
import type { KnownFinding, KnownFindings } from '../types/findings.ts';
import type { Finding } from '../types/results.ts';
import { formatCounterexample } from './format-counterexample.ts';
import type { RenderContext } from './readable-case.ts';
import { timelineLine } from './reproduce.ts';
import { triageLine, triageOf } from './triage.ts';

/** Where each finding's case file (or timeline page) went, by finding id. */
export type SavedFindings = ReadonlyMap<string, string>;

/**
 * The findings list, lines joined with `\n`, no trailing newline; then the known findings this
 * run did not see (fixed, or out of this run's reach), so a stale entry shows.
 */
export function formatFindings(
  findings: readonly Finding[],
  saved: SavedFindings = new Map(),
  known: KnownFindings = { findings: [] },
  pages: SavedFindings = new Map(),
): string {
  const unseen = notSeen(findings, known).map(
    (k) => `  known, not seen in this run: ${k.rule} · ${k.shape}`,
  );
  if (findings.length === 0) return ['Findings: none (every run held)', ...unseen].join('\n');
  const fresh = findings.filter((f) => !f.known).length;
  const runs = findings.reduce((n, f) => n + f.count, 0);
  const lines = [
    `Findings: ${findings.length} distinct (${fresh} new, ${findings.length - fresh} known) in ${runs} failing run${runs === 1 ? '' : 's'}`,
  ];
  for (const [i, f] of findings.entries()) {
    const cx = f.counterexample;
    lines.push(
      '',
      `  ${i + 1}. ${f.known ? 'known' : 'NEW  '}  ${f.rule} · ${f.count} run${f.count === 1 ? '' : 's'} · id ${f.id}`,
      `     shape  ${f.shape}`,
      `     first  ${cx.mode} mode, seed ${cx.seed}, run ${cx.runsToFailure}: ${cx.steps.length} step(s) after ${cx.shrinks} shrinks`,
    );
    if (f.note !== undefined) lines.push(`     note   ${f.note}`);
    const file = saved.get(f.id);
    if (file) lines.push(`     case   ${file}`);
    const page = pages.get(f.id);
    if (page) lines.push(`     page   ${page}`);
  }
  if (unseen.length > 0) lines.push('', ...unseen);
  return lines.join('\n');
}

/**
 * Every new finding's counterexample, each under a header naming it and ending with its triage
 * line (what to change if the handler is right); '' when none is new.
 */
export function formatNewFindings(
  findings: readonly Finding[],
  saved: SavedFindings = new Map(),
  context: RenderContext = {},
  pages: SavedFindings = new Map(),
): string {
  const fresh = findings.filter((f) => !f.known);
  return fresh
    .map((f, i) => {
      const file = saved.get(f.id);
      const page = pages.get(f.id);
      const header = `── new finding ${i + 1} of ${fresh.length}: ${f.rule} · id ${f.id} ──`;
      const text = formatCounterexample(f.counterexample, {
        ...context,
        allFindings: true,
        ...(file ? { savedPath: file } : {}),
        ...(page ? { hints: [timelineLine(page)] } : {}),
      });
      return `${header}\n${text}\n\n${triageLine(triageOf(f.counterexample))}`;
    })
    .join('\n\n');
}

/** The entries of `known` that no finding of the run matched. */
export function notSeen(findings: readonly Finding[], known: KnownFindings): KnownFinding[] {
  return known.findings.filter(
    (k) => !findings.some((f) => f.rule === k.rule && f.shape === k.shape),
  );
}
