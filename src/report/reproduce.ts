/**
 * The "Reproduce" lines of a counterexample: its seed and fast-check path, and the commands that
 * replay the saved file and re-run the check. Shared by the text report and the HTML timeline.
 */
import type { FixtureWithPolicy } from '../model/state.ts';
import { DEFAULT_RUNS } from '../types/options.ts';
import type { ReadableCase, RenderContext } from './readable-case.ts';

/** The seed, fast-check path and the commands that reproduce the case. */
export function reproduce(c: ReadableCase, context: RenderContext): string[] {
  const lines = ['Reproduce:'];
  if (c.seed !== undefined)
    lines.push(`  seed ${c.seed}${c.path ? `, fast-check path ${c.path}` : ''}`);
  if (context.commands !== false) {
    if (context.savedPath)
      lines.push(
        `  replay:  npx receiptcheck replay ${quoteArg(context.savedPath)}${c.handlerNamed === false ? ` --handler ${quoteArg(c.handler ?? 'reference')}` : ''}${context.reproducesDeterministically ? '   (deterministic: runs the scheduled reproduction saved with it)' : ''}`,
      );
    if (c.seed !== undefined && c.handler)
      lines.push(
        `  re-run:  npx receiptcheck run --handler ${quoteArg(c.handler)}${operationFlag(c.fixture)} --seed ${c.seed} --mode ${c.mode}${runsFlag(c.runsToFailure)}${context.allFindings ? ' --all-findings' : ''}`,
      );
  }
  for (const h of context.hints ?? []) lines.push(`  ${h}`);
  return lines;
}

/** The line that names a timeline page once one is written (under Reproduce, or after a command). */
export function timelineLine(path: string): string {
  return `timeline: ${path}   (open it in a browser)`;
}

/** Quotes a shell argument only when it needs it. */
export function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/**
 * ` --runs N` when the failing run lies past a check's default runs, so that the re-run reaches
 * it; else nothing. One mode given alone runs every run, and a run's case depends on the seed
 * and its index, not on how many runs follow it.
 */
function runsFlag(runsToFailure: number | undefined): string {
  return runsToFailure !== undefined && runsToFailure > DEFAULT_RUNS
    ? ` --runs ${runsToFailure}`
    : '';
}

/** ` --operation NAME` for a fixture of another operation than the default; else nothing. */
function operationFlag(fixture: FixtureWithPolicy): string {
  return typeof fixture.operation === 'string' ? ` --operation ${fixture.operation}` : '';
}
