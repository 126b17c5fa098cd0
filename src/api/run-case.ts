/**
 * Runs one case file (a named scenario or a saved counterexample) against a handler in the
 * case's mode: the model check of `checkRun` plus the case's own expectations. Used by
 * `receiptcheck scenarios`, the scenario tests, and `replayCase` (which decides what a pass
 * means); the pieces are exported so a replay's schedule search runs cases the same way.
 */

import { checkExpectations } from '../check/expectations.ts';
import type { OperationSpec } from '../model/operation.ts';
import type { FixtureWithPolicy } from '../model/state.ts';
import type { CaseFile } from '../types/case-file.ts';
import type { Mode } from '../types/mode.ts';
import type { CaseResult } from '../types/results.ts';
import { caseOperation } from './case-operation.ts';
import type { JudgedRun } from './judged-runner.ts';
import { inMode, resolveOptions } from './options.ts';
import { type PreparedRun, prepareRun } from './prepare-run.ts';

/** Overrides for a case run. */
export interface RunCaseOptions {
  /** Run against this handler instead of the one the file names. */
  readonly handler?: string;
  readonly mode?: Mode;
  /** Worker threads in concurrent mode; default one per call of the case's widest group, at least 2. */
  readonly workers?: number;
  /** A PostgreSQL handler's server (`CheckOptions.databaseUrl`). */
  readonly databaseUrl?: string;
  /** Resolve a relative handler path from here (default: the process's cwd). */
  readonly cwd?: string;
}

/** Runs `c` once and reports both kinds of failure. */
export async function runCase(c: CaseFile, options: RunCaseOptions = {}): Promise<CaseResult> {
  const prepared = await prepareCase(c, options);
  try {
    const run = await executeCase(prepared, c.steps, c.extra);
    return caseResultOf(c, prepared, run);
  } finally {
    await prepared.runner.close();
  }
}

/** A case's runner, open: the handler and mode it runs with (the options' or the file's). */
export interface PreparedCase extends PreparedRun {
  readonly handler: string;
  readonly mode: Mode;
}

/** Loads the handler `c` runs against and opens the runner of its mode; `runner.close()` when done. */
export async function prepareCase(
  c: CaseFile,
  options: RunCaseOptions = {},
): Promise<PreparedCase> {
  const handler = options.handler ?? c.handler;
  const mode = options.mode ?? c.mode;
  // Known (a user's own operation: its plugin loaded) and fitted before the handler sets up.
  const spec = await caseOperation(
    {
      source: c.source ?? c.name,
      handler: c.handlerNamed === false ? undefined : c.handler,
      fixture: c.fixture,
      steps: c.steps,
    },
    { ...(options.handler ? { handler: options.handler } : {}), cwd: options.cwd },
  );
  // The policy follows the handler that runs, not the one the file was saved from.
  const { policy: _saved, ...fixture } = c.fixture as FixtureWithPolicy;
  const resolved = resolveOptions({
    handler,
    mode,
    fixture,
    // A case runs its operation's bundled handler of the name it gives, and a plugin of another
    // operation is refused: a set-interval case has nothing to say about a create-once handler.
    operation: spec.name,
    workers: options.workers ?? caseWorkers(c.steps),
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
  });
  return { ...(await prepareRun(inMode(resolved, mode), options.cwd)), handler, mode };
}

/**
 * Threads for a case when none are asked for: one per call of its widest concurrent group (all of
 * a group's calls at once), and at least two, so cases run one after another keep taking the same
 * warm pool (`warm-pool.ts`). A check's default of four would start threads no lane of a case uses.
 */
function caseWorkers(steps: CaseFile['steps']): number {
  return Math.max(2, ...steps.map((s) => (s.kind === 'concurrent' ? s.events.length : 1)));
}

/** Executes `steps` once on the case's runner; a call that outlived the call budget is a hang failure. */
export async function executeCase(
  prepared: PreparedRun,
  steps: CaseFile['steps'],
  replay?: Readonly<Record<string, unknown>>,
): Promise<JudgedRun> {
  return prepared.runner.execute(steps, replay);
}

/** A judged run of `c` as a case result: the model's failures and the file's broken promises. */
export function caseResultOf(
  c: CaseFile,
  on: { readonly handler: string; readonly mode: Mode; readonly spec: OperationSpec },
  run: JudgedRun,
): CaseResult {
  const failures = run.verdict.verdict === 'failed' ? run.verdict.failures : [];
  const expectationFailures = checkExpectations(c, on.spec, run.trace);
  return {
    verdict: failures.length + expectationFailures.length === 0 ? 'passed' : 'failed',
    handler: on.handler,
    mode: on.mode,
    spec: on.spec,
    failures,
    expectationFailures,
    trace: run.trace,
    ...(run.detail !== undefined ? { detail: run.detail } : {}),
  };
}
