/**
 * Runs one case file (a named scenario or a saved counterexample) against a handler in the
 * case's mode: the model check of `checkRun` plus the case's own expectations. Used by
 * `receiptcheck replay`, `receiptcheck scenarios` and the scenario tests.
 */

import { checkExpectations } from '../check/expectations.ts';
import type { FixtureWithPolicy } from '../model/state.ts';
import type { CaseFile } from '../types/case-file.ts';
import type { Mode } from '../types/mode.ts';
import type { CaseResult } from '../types/results.ts';
import { inMode, resolveOptions } from './options.ts';
import { prepareRun } from './prepare-run.ts';

/** Overrides for a case run. */
export interface RunCaseOptions {
  /** Run against this handler instead of the one the file names. */
  readonly handler?: string;
  readonly mode?: Mode;
  readonly workers?: number;
  /** Resolve a relative handler path from here (default: the process's cwd). */
  readonly cwd?: string;
}

/** Runs `c` once and reports both kinds of failure. */
export async function runCase(c: CaseFile, options: RunCaseOptions = {}): Promise<CaseResult> {
  const handler = options.handler ?? c.handler;
  const mode = options.mode ?? c.mode;
  // The policy follows the handler that runs, not the one the file was saved from.
  const { policy: _saved, ...fixture } = c.fixture as FixtureWithPolicy;
  const resolved = resolveOptions({
    handler,
    mode,
    fixture,
    ...(options.workers ? { workers: options.workers } : {}),
  });
  const { runner } = await prepareRun(inMode(resolved, mode), options.cwd);
  try {
    const run = await runner.execute(c.steps, c.extra);
    const failures = run.verdict.verdict === 'failed' ? run.verdict.failures : [];
    const expectationFailures = checkExpectations(c, run.trace);
    return {
      verdict: failures.length + expectationFailures.length === 0 ? 'passed' : 'failed',
      handler,
      mode,
      failures,
      expectationFailures,
      trace: run.trace,
      ...(run.detail !== undefined ? { detail: run.detail } : {}),
    };
  } finally {
    await runner.close();
  }
}
