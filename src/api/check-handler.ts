/**
 * The main job as a function, and it reads as the pipeline: generate sequences (fast-check, with
 * the mode's case arbitrary), execute each in the chosen mode, check it (the judge behind the
 * runner), shrink the first failure, and report everything as data. The CLI's `run`,
 * `assertHandler`, bench and the test suite all go through here.
 */
import fc from 'fast-check';
import { isReceiptcheckError, ReceiptcheckError } from '../errors.ts';
import { interruptedError, interruption } from '../execute/interrupt.ts';
import type { Step } from '../model/events.ts';
import { countCoverage, emptyCoverage } from '../report/coverage.ts';
import type { CoverageKind } from '../types/coverage.ts';
import type { CheckOptions, OneModeOptions, ResolvedOptions } from '../types/options.ts';
import type { CheckResult } from '../types/results.ts';
import type { JudgedRun } from './judged-runner.ts';
import { inMode, resolveOptions } from './options.ts';
import { prepareRun } from './prepare-run.ts';
import { stopOnInterrupt } from './stop-on-interrupt.ts';

/**
 * Runs the checker; resolves to the result as data. Throws a `ReceiptcheckError` on bad options
 * or a bad plugin, and `InterruptedError` when SIGINT or SIGTERM stopped it (no verdict then).
 * With mode `auto` (the default) it explores each of `AUTO_MODES` in turn, each with its share of
 * the runs and of the time left, and stops at the first counterexample.
 */
export async function checkHandler(options: CheckOptions = {}): Promise<CheckResult> {
  const o = resolveOptions(options);
  const parts: CheckResult[] = [];
  const started = performance.now();
  const shares = o.modes.map((_, i) => share(o.runs, i, o.modes.length));
  for (const [i, mode] of o.modes.entries()) {
    const runs = shares[i] ?? 0;
    if (runs === 0) continue;
    const before = { runs: sum(parts, (p) => p.runs), steps: sum(parts, (p) => p.steps) };
    const left = o.timeLimitSeconds && o.timeLimitSeconds - (performance.now() - started) / 1000;
    const part = await checkInMode({
      ...inMode(o, mode),
      runs,
      timeLimitSeconds: left ? Math.max(left / (o.modes.length - i), 0.001) : undefined,
      onProgress:
        o.onProgress &&
        ((p) =>
          o.onProgress?.({
            ...p,
            runs: before.runs + p.runs,
            steps: before.steps + p.steps,
            runsPlanned: o.runs,
          })),
    });
    parts.push(part);
    if (part.verdict === 'failed') break;
  }
  const result = combine(parts, o);
  if (result.verdict === 'passed' && result.timedOut && result.runs < o.minRuns)
    throw new ReceiptcheckError(
      'E_TOO_FEW_RUNS',
      `the time limit of ${o.timeLimitSeconds} s stopped the check after ${result.runs} runs, fewer than the ${o.minRuns} asked for with minRuns: incomplete, not passed; raise the time limit or lower minRuns`,
    );
  return result;
}

/**
 * How long hung candidates may take in all while a failure shrinks, in ms. Each waits out a whole
 * call budget (5 s by default), and a shrink tries dozens; past this, the smallest failing case
 * found so far is reported, saying shrinking was cut short.
 */
export const HANG_SHRINK_MS = 30_000;

/** One mode's check: generate → execute → check, then shrink the first failure. */
async function checkInMode(o: OneModeOptions): Promise<CheckResult> {
  const { plugin, runner, fixture } = await prepareRun(o);
  let fatal: unknown;
  const started = performance.now();
  const coverage = emptyCoverage();
  // Shards split the runs exactly: together they run `o.runs`, no more.
  const runsPlanned = o.shard ? share(o.runs, o.shard.index - 1, o.shard.count) : o.runs;
  const seed = o.shard ? shardSeed(o.seed, o.shard.index) : o.seed;
  let runs = 0;
  let steps = 0;
  let firstFailureAt = 0;
  let lastFailed: { steps: readonly Step[]; run: JudgedRun } | undefined;
  let hungShrinkMs = 0;
  let shrinkCut: string | undefined;
  try {
    const sequenceOptions = {
      stepsMax: o.stepsMax,
      races: true,
      recreate: typeof plugin.recreate === 'function',
    };
    const property = fc.asyncProperty(
      // A mode may draw more than the steps (scheduled mode: a schedule), shrunk with them.
      runner.caseArbitrary(sequenceOptions),
      async ({ steps: sequence, replay }) => {
        if (fatal) return true;
        if (firstFailureAt && hungShrinkMs >= HANG_SHRINK_MS) {
          shrinkCut ??= `cut short: hung candidates had taken ${Math.round(hungShrinkMs / 1000)} s, each a whole call budget of ${o.callTimeoutMs} ms`;
          // fast-check's "interrupted": shrinking ends, keeping the smallest failure so far.
          throw new fc.PreconditionFailure(true);
        }
        let run: JudgedRun;
        const runStarted = performance.now();
        try {
          run = await runner.execute(sequence, replay);
        } catch (thrown) {
          if (isReceiptcheckError(thrown)) {
            fatal = thrown;
            return true;
          }
          throw thrown;
        }
        if (!firstFailureAt) {
          runs++;
          steps += countCoverage(sequence, coverage);
          o.onProgress?.({
            runs,
            runsPlanned,
            steps,
            elapsedMs: performance.now() - started,
            coverage,
          });
        }
        if (firstFailureAt && isHang(run)) hungShrinkMs += performance.now() - runStarted;
        if (run.verdict.verdict === 'failed') {
          firstFailureAt ||= runs;
          lastFailed = { steps: sequence, run };
          return false;
        }
        return true;
      },
    );
    const details = await fc.check(property, {
      numRuns: runsPlanned,
      seed,
      plugins: [stopOnInterrupt()],
      ...(o.timeLimitSeconds
        ? { interruptAfterTimeLimit: o.timeLimitSeconds * 1000, markInterruptAsFailure: false }
        : {}),
    });
    const stopped = interruption();
    if (stopped)
      throw interruptedError(
        stopped,
        `in ${o.mode} mode after ${runs} of ${runsPlanned} runs${lastFailed ? ', while shrinking a counterexample' : ''}`,
      );
    if (fatal) throw fatal;
    if (details.failed && details.errorInstance && !lastFailed) throw details.errorInstance;
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
      elapsedMs: performance.now() - started,
      timedOut: details.interrupted && !shrinkCut,
    };
    if (!details.failed || !details.counterexample) return { verdict: 'passed', ...base };
    const [{ steps: shrunk, replay }] = details.counterexample;
    // The shrunk case is re-run once so the report shows its own failures, not a larger one's.
    const final = await runner.execute(shrunk, replay);
    const failed = final.verdict.verdict === 'failed' ? final : (lastFailed?.run ?? final);
    const failures = failed.verdict.verdict === 'failed' ? failed.verdict.failures : [];
    return {
      verdict: 'failed',
      ...base,
      counterexample: {
        handler: o.handler,
        handlerName: plugin.name,
        mode: o.mode,
        seed,
        path: details.counterexamplePath ?? '',
        fixture,
        steps: failed === final ? shrunk : (lastFailed?.steps ?? shrunk),
        failures,
        runsToFailure: firstFailureAt,
        shrinks: details.numShrinks,
        ...(shrinkCut ? { shrinkCut } : {}),
        ...(failed.detail !== undefined ? { detail: failed.detail } : {}),
      },
    };
  } finally {
    await runner.close();
  }
}

/** A shard's seed: distinct per shard, the same on every machine. */
export function shardSeed(seed: number, index: number): number {
  return (seed * 31 + index * 1_000_003) | 0;
}

/** The `i`-th of `n` shares of `runs`, the first ones a run larger when they do not divide. */
function share(runs: number, i: number, n: number): number {
  return Math.floor(runs / n) + (i < runs % n ? 1 : 0);
}

function sum(parts: readonly CheckResult[], of: (p: CheckResult) => number): number {
  return parts.reduce((total, p) => total + of(p), 0);
}

/** One result for the modes explored: counts added up, the failing mode's counterexample. */
function combine(parts: readonly CheckResult[], o: ResolvedOptions): CheckResult {
  const last = parts[parts.length - 1];
  if (!last) throw new Error('a check ran no mode');
  if (parts.length === 1) return last;
  const coverage = emptyCoverage();
  for (const p of parts)
    for (const [kind, n] of Object.entries(p.coverage)) coverage[kind as CoverageKind] += n;
  return {
    ...last,
    modes: parts.map((p) => p.mode),
    runs: sum(parts, (p) => p.runs),
    runsPlanned: o.shard ? sum(parts, (p) => p.runsPlanned) : o.runs,
    steps: sum(parts, (p) => p.steps),
    coverage,
    elapsedMs: sum(parts, (p) => p.elapsedMs),
    timedOut: parts.some((p) => p.timedOut),
  };
}

/** Whether a run stopped at a hung call. */
function isHang(run: JudgedRun): boolean {
  return run.verdict.verdict === 'failed' && run.verdict.failures.some((f) => f.kind === 'hang');
}
