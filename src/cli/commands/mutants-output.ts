/**
 * What `receiptcheck mutants` prints besides the kill matrix: the catalogue (`--list`), the
 * real-thread lines, where the timelines went, and the JUnit report. Pure text.
 */

import { resolve } from 'node:path';
import {
  type Measured,
  type MutantEngine,
  mutantCatalogue,
  referenceNames,
  type ThreadKill,
} from '../../api/mutant-kills.ts';
import { BUNDLED_HANDLERS, operationCatalogue } from '../../handlers/registry.ts';
import { formatCounterexample } from '../../report/format-counterexample.ts';
import { formatJunit } from '../../report/format-junit.ts';
import { killMatrixRows } from '../../report/kill-matrix.ts';

/** Where the killed mutants' pages went, when `--html` was given. */
export function pagesLine(pages: ReadonlyMap<string, string>, dir?: string): string {
  if (dir === undefined) return '';
  return `\ntimelines: ${pages.size} page(s) in ${dir}, one per killed mutant (open NAME.html in a browser)\n`;
}

/** The real-thread lines: what timing gave this time, never part of the verdict. */
export function formatThreadKills(threads: readonly ThreadKill[]): string {
  if (threads.length === 0) return '';
  const lines = [
    '',
    'Race mutants on real threads (concurrent mode; information only, timing decides it):',
  ];
  const width = Math.max(22, ...threads.map((t) => t.name.length));
  for (const t of threads)
    lines.push(
      `  ${t.name.padEnd(width)} ${t.killed ? `killed at run ${t.runsToKill}` : `not seen in ${t.runs} runs`} (${Math.round(t.ms)} ms)`,
    );
  return `${lines.join('\n')}\n`;
}

/** The catalogue `--list` prints: each mutant with its bug and real-world class, then the rest. */
export function formatCatalogue(operation?: string, engine: MutantEngine = 'sqlite'): string {
  const title =
    engine === 'postgres'
      ? `PostgreSQL mutants of ${operation ?? 'set-interval'} (each killed in scheduled mode on a real server):`
      : `Mutants of ${operation ?? 'set-interval'} (each a small variation of the reference with one bug):`;
  const lines = [title, ''];
  for (const m of mutantCatalogue(operation, engine))
    lines.push(
      `  ${m.name} (${m.mode})`,
      `      bug:   ${m.bug}`,
      `      class: ${m.realWorldClass}`,
    );
  if (engine === 'postgres') {
    lines.push(
      '',
      `References that must hold: ${referenceNames(engine, operation).join(', ')}`,
      '',
    );
    return lines.join('\n');
  }
  const uncatalogued = operationCatalogue(operation ?? 'set-interval')?.uncatalogued ?? [];
  if (uncatalogued.length > 0) lines.push('', 'Not catalogued on purpose:');
  for (const b of uncatalogued) lines.push(`  ${b.bug}: ${b.reason}`);
  const others = BUNDLED_HANDLERS.filter((h) => h.kind !== 'mutant').map(
    (h) => `${h.name} (${h.kind})`,
  );
  lines.push('', `Other bundled handlers: ${others.join(', ')}`, '');
  return lines.join('\n');
}

/** The kill matrix as JUnit XML: one testcase per handler, a survivor or a failed reference a failure. */
export function junit(
  measured: readonly Measured[],
  saved: Map<string, string>,
  pages: Map<string, string>,
  seed?: number,
): string {
  const rows = killMatrixRows(measured.map((m) => m.result));
  return formatJunit({
    name: 'receiptcheck mutants',
    ...(seed !== undefined ? { properties: { seed } } : {}),
    cases: measured.map((m, i) => {
      const row = rows[i];
      const name = `${m.result.name} (${m.result.mode}) is ${m.result.kind === 'reference' ? 'held' : 'killed'}`;
      const page = pages.get(m.result.name);
      const base = {
        name,
        classname: `receiptcheck.mutants.${m.result.kind}`,
        timeMs: m.result.ms,
        // A killed mutant passes, and its page still shows what killed it.
        ...(page ? { attachments: [{ name: 'timeline', path: resolve(page) }] } : {}),
      };
      if (!row || row.asExpected) return base;
      const cx = m.counterexample;
      const savedPath = saved.get(m.result.name);
      const text = cx
        ? formatCounterexample(cx, savedPath ? { savedPath } : {})
        : `${m.result.name} survived ${m.check.runs} generated runs (seed ${m.check.seed}); raise --runs or strengthen the generators`;
      return { ...base, failure: { message: `${m.result.name}: ${row.status}`, text } };
    }),
  });
}
