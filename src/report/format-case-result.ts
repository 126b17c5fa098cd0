/**
 * Renders the result of running one case file (`receiptcheck replay`, `receiptcheck scenarios`):
 * a one-line verdict, and for a failing case the numbered steps, what broke, the promises in
 * the file that did not hold and the database difference. Pure.
 */

import type { CaseFile } from '../types/case-file.ts';
import type { CaseResult } from '../types/results.ts';
import { formatDatabase, formatExplanations, formatSteps } from './format-counterexample.ts';
import { formatInterleaving } from './format-interleaving.ts';
import type { ReadableCase } from './readable-case.ts';
import { reproduce } from './reproduce.ts';

/** A case run as the renderers read it: the file's steps and fixture, the run's failures and answers. */
export function caseResultReadable(c: CaseFile, r: CaseResult): ReadableCase {
  return {
    handler: r.handler,
    handlerName: r.handler,
    mode: r.mode,
    fixture: c.fixture,
    spec: r.spec,
    steps: c.steps,
    failures: r.failures,
    ...(typeof c.extra.seed === 'number' ? { seed: c.extra.seed } : {}),
    ...(typeof c.extra.path === 'string' ? { path: c.extra.path } : {}),
    ...(r.detail !== undefined ? { detail: r.detail } : {}),
    answers: r.trace.observations,
  };
}

/** The one-line verdict, e.g. `✗ 02-lost-response-replays: fails against version-before-receipt`. */
export function caseVerdictLine(c: CaseFile, r: CaseResult): string {
  const against = `against ${r.handler} (${r.mode})`;
  return r.verdict === 'passed'
    ? `✓ ${c.name}: passes ${against}`
    : `✗ ${c.name}: fails ${against}, ${r.failures.length + r.expectationFailures.length} problem(s)`;
}

/**
 * The verdict line, and for a failure the full readable account; `savedPath` adds the replay
 * command, `verbose` the stack of every unexpected error and every statement of a scheduled run in
 * full, with its parameters.
 */
export function formatCaseResult(
  c: CaseFile,
  r: CaseResult,
  savedPath?: string,
  verbose = false,
): string {
  const lines = [caseVerdictLine(c, r)];
  if (r.verdict === 'passed') return lines.join('\n');
  const readable = caseResultReadable(c, r);
  // A saved counterexample's description repeats "What broke"; a scenario's says what it is about.
  if (c.description && c.extra.failures === undefined) lines.push(`  ${c.description}`);
  lines.push('', 'Steps:', ...formatSteps(readable, { verbose }), '', 'What broke:');
  lines.push(...formatExplanations(r.failures, c.steps, r.spec));
  if (r.expectationFailures.length > 0) {
    lines.push('', 'Promises in the file that did not hold:');
    for (const e of r.expectationFailures) lines.push(`  - ${e.message}`);
  }
  lines.push('', 'Database (expected by the model vs found):', ...formatDatabase(r.failures));
  lines.push('', ...formatInterleaving(r.detail, { fullSql: verbose }));
  // The seed and path belong to the run that found the case, so the re-run uses the case's mode.
  lines.push(...reproduce({ ...readable, mode: c.mode }, savedPath ? { savedPath } : {}));
  return lines.join('\n');
}
