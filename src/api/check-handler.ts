/**
 * The main job as a function, and it reads as the pipeline: generate sequences (fast-check, with
 * the mode's case arbitrary), execute each in the chosen mode, check it (the judge behind the
 * runner), shrink the first failure (`shrunk-counterexample.ts`), and report everything as data.
 * With `allFindings` it goes on past the first failure and groups every shrunk failure into
 * findings (`all-findings.ts`). The CLI's `run`, `assertHandler`, bench and the test suite all go
 * through here.
 */
import { ReceiptcheckError } from '../errors.ts';
import { leftBehindError } from '../execute/apply-event.ts';
import { type Escape, takeEscape } from '../execute/runtime/contain/escapes.ts';
import { interruptedError, interruption } from '../execute/runtime/interrupt.ts';
import { inputClassesOf } from '../generate/field-classes.ts';
import type { OperationSpec } from '../model/operation.ts';
import { countCoverage, emptyCoverage } from '../report/coverage.ts';
import { countInputCoverage, emptyInputCoverage } from '../report/input-coverage.ts';
import { countOperationCoverage, emptyOperationCoverage } from '../report/operation-coverage.ts';
import type { CheckOptions, OneModeOptions, ResolvedOptions } from '../types/options.ts';
import type { CheckResult } from '../types/results.ts';
import {
  type ExploredAll,
  exploreAllFindings,
  InterruptedWithFindings,
  withPartsBefore,
} from './all-findings.ts';
import { combine, modeShares, share, sum, withFindings } from './combine-parts.ts';
import { type Explored, type ExploreOptions, explore } from './explore.ts';
import { inMode, resolveOptions } from './options.ts';
import { prepareRun } from './prepare-run.ts';
import { shrunkCounterexample } from './shrunk-counterexample.ts';

/** The public `checkHandler`, which `on-first-call.ts` documents and loads this for. */
export async function checkHandler(options: CheckOptions = {}): Promise<CheckResult> {
  const o = resolveOptions(options);
  const result = o.allFindings ? await checkSeeds(o) : await checkModes(o);
  if (result.verdict === 'passed' && result.timedOut && result.runs < o.minRuns)
    throw new ReceiptcheckError(
      'E_TOO_FEW_RUNS',
      `the time limit of ${o.timeLimitSeconds} s stopped the check after ${result.runs} runs, fewer than the ${o.minRuns} asked for with minRuns: incomplete, not passed; raise the time limit or lower minRuns`,
    );
  return result;
}

/** Every mode of `o` in turn on its seed, stopping at the first counterexample unless `allFindings`. */
async function checkModes(o: ResolvedOptions): Promise<CheckResult> {
  const parts: CheckResult[] = [];
  const started = performance.now();
  const shares = modeShares(o.runs, o.modes);
  const join = (done: readonly CheckResult[]) =>
    combine(done, o.shard ? sum(done, (p) => p.runsPlanned) : o.runs, o, shares);
  for (const [i, mode] of o.modes.entries()) {
    const runs = shares[i] ?? 0;
    if (runs === 0) continue;
    const left = o.timeLimitSeconds && o.timeLimitSeconds - (performance.now() - started) / 1000;
    let part: CheckResult;
    try {
      part = await checkInMode({
        ...inMode(o, mode),
        runs,
        // The time left goes by the same weights as the runs, among the modes still to come.
        timeLimitSeconds: left
          ? Math.max((left * runs) / shares.slice(i).reduce((a, b) => a + b, 0), 0.001)
          : undefined,
        onProgress: progressAfter(o.onProgress, parts, o.runs),
      });
    } catch (thrown) {
      if (!o.allFindings) throw thrown;
      throw withPartsBefore(thrown, parts, join);
    }
    parts.push(part);
    if (part.verdict === 'failed' && !o.allFindings) break;
  }
  return join(parts);
}

/**
 * Progress of one part of a check, reported as progress of the whole: the runs and steps of the
 * parts already done (`done`, read now) are added, out of `runsPlanned` in all.
 */
function progressAfter(
  onProgress: ResolvedOptions['onProgress'],
  done: readonly CheckResult[],
  runsPlanned: number,
): ResolvedOptions['onProgress'] {
  if (!onProgress) return undefined;
  const before = { runs: sum(done, (p) => p.runs), steps: sum(done, (p) => p.steps) };
  return (p) =>
    onProgress({ ...p, runs: before.runs + p.runs, steps: before.steps + p.steps, runsPlanned });
}

/**
 * An all-findings check over each of `o.seeds` in turn, each with the whole run budget and an
 * equal share of the time left; one result, equal findings counted together.
 */
async function checkSeeds(o: ResolvedOptions): Promise<CheckResult> {
  const parts: CheckResult[] = [];
  const started = performance.now();
  for (const [i, seed] of o.seeds.entries()) {
    const left = o.timeLimitSeconds && o.timeLimitSeconds - (performance.now() - started) / 1000;
    if (left !== undefined && left <= 0) break;
    try {
      parts.push(
        await checkModes({
          ...o,
          seed,
          timeLimitSeconds: left ? left / (o.seeds.length - i) : undefined,
          onProgress: progressAfter(o.onProgress, parts, o.runs * o.seeds.length),
        }),
      );
    } catch (thrown) {
      throw withPartsBefore(thrown, parts, (done) => joinSeeds(o, done, o.runs * o.seeds.length));
    }
  }
  return joinSeeds(
    o,
    parts,
    sum(parts, (p) => p.runsPlanned),
  );
}

/** One result for the seeds checked (`parts`), of `runsPlanned` runs in all. */
function joinSeeds(
  o: ResolvedOptions,
  parts: readonly CheckResult[],
  runsPlanned: number,
): CheckResult {
  const result = combine(parts, runsPlanned, o);
  return {
    ...result,
    seed: o.seeds[0] ?? o.seed,
    ...(o.seeds.length > 1 ? { seeds: parts.map((p) => p.seed) } : {}),
    timedOut: result.timedOut || parts.length < o.seeds.length,
  };
}

/**
 * One mode's check: explore (generate → execute → judge, in fast-check's order, `explore.ts`)
 * until a run fails, then let fast-check shrink that failure from its index.
 */
async function checkInMode(o: OneModeOptions): Promise<CheckResult> {
  const { plugin, runner, fixture, spec } = await prepareRun(o);
  const started = performance.now();
  const coverage = emptyCoverage();
  const inputCoverage = emptyInputCoverage(spec);
  const operationCoverage = emptyOperationCoverage(spec);
  // Shards split the runs exactly: together they run `o.runs`, no more.
  const runsPlanned = o.shard ? share(o.runs, o.shard.index - 1, o.shard.count) : o.runs;
  const seed = o.shard ? shardSeed(o.seed, o.shard.index) : o.seed;
  const deadline = o.timeLimitSeconds ? started + o.timeLimitSeconds * 1000 : undefined;
  let runs = 0;
  let steps = 0;
  try {
    mustNameInputClasses(o.excludeInputClasses, spec);
    // A mode may draw more than the steps (scheduled mode: a schedule), shrunk with them.
    const arbitrary = runner.caseArbitrary({
      stepsMax: o.stepsMax,
      races: true,
      recreate: typeof plugin.recreate === 'function',
      excludeInputClasses: o.excludeInputClasses,
    });
    const exploring: ExploreOptions = {
      seed,
      runs: runsPlanned,
      ...(deadline !== undefined ? { deadline } : {}),
      onRun: (c) => {
        runs++;
        steps += countCoverage(c.steps, coverage);
        countInputCoverage(c.steps, fixture, spec, inputCoverage);
        countOperationCoverage(c.steps, fixture, spec, operationCoverage);
        o.onProgress?.({
          runs,
          runsPlanned,
          steps,
          elapsedMs: performance.now() - started,
          coverage,
        });
      },
    };
    const context = {
      handler: o.handler,
      handlerName: plugin.name,
      mode: o.mode,
      seed,
      fixture,
      callTimeoutMs: o.callTimeoutMs,
      ...(deadline !== undefined ? { deadline } : {}),
    };
    let explored: Explored | ExploredAll;
    try {
      explored = o.allFindings
        ? await exploreAllFindings(runner, arbitrary, exploring, context, o.knownFindings)
        : await explore(runner, arbitrary, exploring);
    } catch (thrown) {
      const stopped = interruption();
      if (stopped)
        throw interruptedError(stopped, `in ${o.mode} mode after ${runs} of ${runsPlanned} runs`);
      throw thrown;
    }
    const base = {
      handler: o.handler,
      handlerName: plugin.name,
      mode: o.mode,
      modes: [o.mode],
      seed,
      shard: o.shard,
      runs,
      runsPlanned,
      steps,
      coverage,
      inputCoverage,
      operationCoverage,
      elapsedMs: performance.now() - started,
      timedOut: explored.kind === 'timedOut',
    };
    if (explored.kind === 'interrupted')
      throw new InterruptedWithFindings(
        interruptedError(
          explored.stopped,
          `in ${o.mode} mode after ${runs} of ${runsPlanned} runs`,
        ),
        withFindings({ ...base, verdict: 'passed' }, explored.findings),
      );
    if (explored.kind !== 'failed') {
      // An escape still unseen may belong to any run: no call can be blamed, and no pass given.
      const left = await escapeLeftBehind();
      if (left) throw leftBehindError(plugin.name, left);
      if ('findings' in explored)
        return withFindings({ ...base, verdict: 'passed' }, explored.findings);
      return { verdict: 'passed', ...base };
    }
    const { counterexample } = await shrunkCounterexample(runner, arbitrary, explored, {
      ...context,
      progress: `after ${runs} of ${runsPlanned} runs`,
    });
    return {
      verdict: 'failed',
      ...base,
      elapsedMs: performance.now() - started,
      counterexample,
    };
  } finally {
    await runner.close();
  }
}

/**
 * Refuses an `excludeInputClasses` entry that names none of the checked operation's classes
 * (`inputCoverage`'s names): a typo would silently exclude nothing. Known only once the plugin
 * has named its operation, whose fields have classes of their own.
 */
function mustNameInputClasses(excluded: readonly string[], spec: OperationSpec): void {
  const known = new Set(inputClassesOf(spec));
  const unknown = excluded.filter((c) => !known.has(c));
  if (unknown.length > 0)
    throw new ReceiptcheckError(
      'E_BAD_OPTION',
      `excludeInputClasses names no input class of ${spec.name}: ${unknown.map((c) => JSON.stringify(c)).join(', ')} (see inputCoverage in a result for the names)`,
    );
}

/** What plugin code let escape after its last call ended, once the event loop has turned. */
async function escapeLeftBehind(): Promise<Escape | undefined> {
  await new Promise((resolve) => setImmediate(resolve));
  return takeEscape();
}

/** A shard's seed: distinct per shard, the same on every machine. */
export function shardSeed(seed: number, index: number): number {
  return (seed * 31 + index * 1_000_003) | 0;
}
