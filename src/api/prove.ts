/**
 * `prove`: every schedule of each case within a preemption bound, instead of schedules drawn at
 * random. For each case the search (`execute/prove/explore-schedules.ts`) forces prefixes of the
 * scheduler's choices; each schedule runs in scheduled mode with its decisions recorded and is
 * judged by the same judge as every run (`judged-runner.ts`), a case file's own expectations
 * included. The cases: one case file, the named scenarios of the handler's operation, or cases
 * generated from the seed up to a size bound. A failure comes back as the schedule with the
 * fewest preemptions, ready to save as a scheduled case file that `replay` runs exactly.
 */
import { ReceiptcheckError } from '../errors.ts';
import { exploreCase } from '../execute/prove/explore-case.ts';
import type { Exploration } from '../execute/prove/explore-schedules.ts';
import { engineOf } from '../handlers/engine.ts';
import type { Step } from '../model/events.ts';
import type { CaseFile } from '../types/case-file.ts';
import { RECORD_DECISIONS } from '../types/execution.ts';
import type { ProvedCase, ProveFailure, ProveResult } from '../types/prove.ts';
import type { Schedule } from '../types/schedule.ts';
import type { Failure } from '../types/verdict.ts';
import type { JudgedRunner } from './judged-runner.ts';
import { inMode, resolveOptions } from './options.ts';
import { prepareRun } from './prepare-run.ts';
import { failureOf, generatedCase, generatedCases, type ProveRun } from './prove-cases.ts';
import { shrinkSteps } from './prove-shrink.ts';
import { caseResultOf, prepareCase } from './run-case.ts';

/** What `prove` may be given; every field has a default. */
export interface ProveOptions {
  /** Bundled handler name or plugin path. Default `reference`. */
  readonly handler?: string;
  /** The operation, as `CheckOptions.operation`. */
  readonly operation?: string;
  /** Most preemptions a schedule may have (CHESS's bound). Default 2. */
  readonly preemptions?: number;
  /** Partial-order reduction (skip schedules equivalent to ones run). Default true. */
  readonly reduce?: boolean;
  /** Generated cases: most steps each. Default 3. */
  readonly stepsMax?: number;
  /** Generated cases: most lanes in a concurrent group. Default 3. */
  readonly lanesMax?: number;
  /** Generated cases: how many (each with a concurrent group). Default 20. */
  readonly cases?: number;
  /** Seed of the generated cases. Default 42. */
  readonly seed?: number;
  /** Prove these cases instead of generated ones (a case file, the named scenarios). */
  readonly caseFiles?: readonly CaseFile[];
  /** Also every single crash and store fault at every point of a concurrent group. Default false. */
  readonly injections?: boolean;
  /** Most schedules run per case; more leaves the verdict incomplete. Default 20,000. */
  readonly schedulesMax?: number;
  readonly workers?: number;
  readonly lanes?: 'auto' | 'inline' | 'threads';
  readonly callTimeoutMs?: number;
  readonly databaseUrl?: string;
  /** Resolve a relative handler path from here. */
  readonly cwd?: string;
  /** Called as each case's search ends (not the shrinking's): for progress and measurement. */
  readonly onCase?: (explored: ProvedCase) => void;
}

/** Proves a handler over its cases (see the file comment); stops at the first failing case. */
export async function prove(options: ProveOptions = {}): Promise<ProveResult> {
  const started = Date.now();
  const preemptions = options.preemptions ?? 2;
  const reduce = options.reduce ?? true;
  const stepsMax = options.stepsMax ?? 3;
  const lanesMax = options.lanesMax ?? 3;
  checkCount('preemptions', preemptions, 0, 20);
  checkCount('max-steps', stepsMax, 1, 50);
  checkCount('max-lanes', lanesMax, 2, 8);
  checkCount('cases', options.cases ?? 20, 1, 100_000);
  const totals = { cases: 0, runs: 0, pruned: 0, duplicates: 0, beyondBound: 0, serverOrdered: 0 };
  let incomplete = false;
  let engine: 'sqlite' | 'postgres' = 'sqlite';
  const handlers = new Set<string>();
  let failure: ProveFailure | undefined;
  /**
   * Counts a search. Branches past a lower pass's bound are run by the next pass, so they count
   * as past the bound only in the last pass, or the pass that found a failure.
   */
  const add = (e: Exploration<ProveRun>, last = true) => {
    totals.runs += e.runs;
    totals.pruned += e.pruned;
    totals.duplicates += e.duplicates;
    if (last || e.failure) totals.beyondBound += e.beyondBound;
    if (!e.complete) incomplete = true;
  };
  const explore = (
    runner: JudgedRunner,
    c: CaseFile | undefined,
    steps: readonly Step[],
    bound = preemptions,
    ran: (r: ProveRun) => void = () => {},
  ) =>
    exploreCase<ProveRun>(
      async (schedule) => {
        const r = await probe(runner, c, steps, schedule);
        if (r.serverOrdered) totals.serverOrdered++;
        ran(r);
        return r;
      },
      {
        preemptions: bound,
        reduce,
        engine,
        injections: options.injections ?? false,
        schedulesMax: options.schedulesMax ?? 20_000,
      },
    );
  /** A case's search at the full bound, told to `onCase` with the trace of every schedule it ran. */
  const search = async (runner: JudgedRunner, c: CaseFile | undefined, steps: readonly Step[]) => {
    const caseStarted = performance.now();
    const traceHashes: string[] = [];
    const e = await explore(runner, c, steps, preemptions, (r) => traceHashes.push(r.traceHash));
    options.onCase?.({
      steps,
      traceHashes,
      elapsedMs: performance.now() - caseStarted,
      failed: e.failure !== undefined,
    });
    return e;
  };
  if (options.caseFiles) {
    for (const c of options.caseFiles) {
      const prepared = await prepareCase(c, { ...runOptions(options), mode: 'scheduled' });
      try {
        engine = engineOf(prepared.plugin);
        handlers.add(prepared.handler);
        const e = await search(prepared.runner, c, c.steps);
        totals.cases++;
        add(e);
        if (e.failure) failure = failureOf(c, c.steps, prepared.handler, prepared.spec, e.failure);
      } finally {
        await prepared.runner.close();
      }
      if (failure) break;
    }
  } else {
    const resolved = resolveOptions({
      ...runOptions(options),
      ...(options.operation !== undefined ? { operation: options.operation } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      mode: 'scheduled',
      stepsMax,
    });
    const prepared = await prepareRun(inMode(resolved, 'scheduled'), options.cwd);
    try {
      engine = engineOf(prepared.plugin);
      const cases = generatedCases(prepared.fixture, prepared.spec, {
        stepsMax,
        lanesMax,
        count: options.cases ?? 20,
        seed: resolved.seed,
        recreate: typeof prepared.plugin.recreate === 'function',
      });
      // Every case at 0 preemptions, then every case at 1, and so on up to the bound (CHESS's
      // iterative bounding): most races need one preemption, and a case of three lanes can have
      // thousands of schedules with two, so a bug in the 11th case is not found only after the
      // first ten were searched to the full bound. The lower passes cost a fraction of the last.
      for (let bound = 0; bound <= preemptions && !failure; bound++) {
        const final = bound === preemptions;
        for (const [i, steps] of cases.entries()) {
          totals.cases = Math.max(totals.cases, i + 1);
          const e = final
            ? await search(prepared.runner, undefined, steps)
            : await explore(prepared.runner, undefined, steps, bound);
          add(e, final);
          if (!e.failure) continue;
          const shrunk = await shrinkSteps(steps, e.failure, async (fewer) => {
            const again = await explore(prepared.runner, undefined, fewer);
            totals.runs += again.runs;
            return again.failure;
          });
          const c = generatedCase(resolved.handler, prepared.fixture, shrunk.steps);
          failure = {
            ...failureOf(c, shrunk.steps, resolved.handler, prepared.spec, shrunk.found),
            caseNumber: i + 1,
          };
          break;
        }
      }
    } finally {
      await prepared.runner.close();
    }
  }
  return {
    // A run the server ordered took one of its schedule's paths: the others were not searched.
    verdict: failure ? 'failed' : incomplete || totals.serverOrdered > 0 ? 'incomplete' : 'held',
    // Case files name their own handlers when --handler is not given.
    handler: options.handler ?? ([...handlers].join(', ') || 'reference'),
    engine,
    preemptions,
    reduce,
    injections: options.injections ?? false,
    source: options.caseFiles ? 'files' : 'generated',
    stepsMax,
    lanesMax,
    ...totals,
    limitReached: incomplete,
    elapsedMs: Date.now() - started,
    ...(failure ? { failure } : {}),
  };
}

/** The options every case run shares. */
function runOptions(o: ProveOptions) {
  return {
    ...(o.handler !== undefined ? { handler: o.handler } : {}),
    ...(o.workers !== undefined ? { workers: o.workers } : {}),
    ...(o.lanes !== undefined ? { lanes: o.lanes } : {}),
    ...(o.callTimeoutMs !== undefined ? { callTimeoutMs: o.callTimeoutMs } : {}),
    ...(o.databaseUrl !== undefined ? { databaseUrl: o.databaseUrl } : {}),
    ...(o.cwd !== undefined ? { cwd: o.cwd } : {}),
  };
}

/** Runs one schedule with its decisions recorded, and judges it (a case file's expectations too). */
async function probe(
  runner: JudgedRunner,
  c: CaseFile | undefined,
  steps: readonly Step[],
  schedule: Schedule,
): Promise<ProveRun> {
  const judged = await runner.execute(steps, { schedule, [RECORD_DECISIONS]: true });
  const detail = judged.detail;
  if (detail?.mode !== 'scheduled' || !detail.decisions)
    throw new Error('a prover run came back without its decisions');
  const failures =
    judged.verdict.verdict === 'failed' ? judged.verdict.failures : ([] as Failure[]);
  const expectationFailures = c
    ? caseResultOf(c, { handler: c.handler, mode: 'scheduled', spec: runner.spec }, judged)
        .expectationFailures
    : [];
  return {
    decisions: detail.decisions,
    traceHash: detail.traceHash,
    serverOrdered: detail.serverOrdered === true,
    failed: failures.length + expectationFailures.length > 0,
    judged,
    failures,
  };
}

function checkCount(name: string, value: number, min: number, max: number): void {
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new ReceiptcheckError(
      'E_BAD_OPTION',
      `--${name} must be an integer from ${min} to ${max} (got ${value})`,
    );
}
