/**
 * The main job as a function: generate sequences, execute them in the chosen mode, check each
 * against the model, shrink the first failure, and return everything as data. The CLI's `run`,
 * `assertHandler` and the test suite all go through here.
 */

import fc from 'fast-check';
import { isReceiptcheckError } from '../errors.ts';
import { createRunner } from '../execute/create-runner.ts';
import { loadPlugin, resolveHandlerPath } from '../execute/load-plugin.ts';
import type { ExecutedRun, GeneratedCase } from '../execute/mode-runner.ts';
import { withCallTimeout } from '../execute/sequential-call-timeout.ts';
import { sequenceArbitrary } from '../generate/sequence-arbitrary.ts';
import type { Step } from '../model/events.ts';
import { type PolicyDeclaration, resolvePolicy } from '../model/policy.ts';
import type { FixtureWithPolicy } from '../model/state.ts';
import type { Fixture } from '../model/world.ts';
import { countCoverage, emptyCoverage } from '../report/coverage.ts';
import type { CheckOptions } from '../types/options.ts';
import type { CheckResult } from '../types/results.ts';
import { resolveOptions } from './options.ts';

/** Runs the checker; resolves to the result as data. Throws a `ReceiptcheckError` on bad options or a bad plugin. */
export async function checkHandler(options: CheckOptions = {}): Promise<CheckResult> {
  const o = resolveOptions(options);
  const handlerPath = resolveHandlerPath(o.handler);
  let fatal: unknown;
  const loaded = await loadPlugin(handlerPath);
  // Calls in this thread (sequential mode; scheduled mode's plain steps) get a timer race;
  // calls on workers (concurrent mode; scheduled mode's lanes) are timed out there.
  const plugin =
    o.mode !== 'concurrent'
      ? withCallTimeout(loaded, o.callTimeoutMs, (hang) => {
          fatal ??= hang;
        })
      : loaded;
  // The model holds the handler to its declared policy; the fixture carries it to every checker.
  const fixture = withPolicy(o.fixture, plugin.policy, plugin.name);
  const runner = await createRunner(plugin, handlerPath, { ...o, fixture });
  const started = performance.now();
  const coverage = emptyCoverage();
  const runsPlanned = o.shard ? Math.ceil(o.runs / o.shard.count) : o.runs;
  const seed = o.shard ? shardSeed(o.seed, o.shard.index) : o.seed;
  let runs = 0;
  let steps = 0;
  let firstFailureAt = 0;
  let lastFailed: { steps: readonly Step[]; run: ExecutedRun } | undefined;
  try {
    const sequenceOptions = {
      stepsMax: o.stepsMax,
      races: true,
      recreate: typeof plugin.recreate === 'function',
    };
    const property = fc.asyncProperty(
      // A mode may draw more than the steps (scheduled mode: a schedule), shrunk with them.
      runner.caseArbitrary?.(sequenceOptions) ??
        sequenceArbitrary(fixture, sequenceOptions).map((steps): GeneratedCase => ({ steps })),
      async ({ steps: sequence, replay }) => {
        if (fatal) return true;
        let run: ExecutedRun;
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
      ...(o.timeLimitSeconds
        ? { interruptAfterTimeLimit: o.timeLimitSeconds * 1000, markInterruptAsFailure: false }
        : {}),
    });
    if (fatal) throw fatal;
    if (details.failed && details.errorInstance && !lastFailed) throw details.errorInstance;
    const base = {
      handler: o.handler,
      handlerName: plugin.name,
      mode: o.mode,
      seed,
      shard: o.shard,
      runs,
      runsPlanned,
      steps,
      coverage,
      elapsedMs: performance.now() - started,
      timedOut: details.interrupted,
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
        ...(failed.detail !== undefined ? { detail: failed.detail } : {}),
      },
    };
  } finally {
    await runner.close();
  }
}

/**
 * The fixture with the plugin's declared policy attached (resolved and checked), or unchanged
 * when the plugin declares none, so contract handlers' counterexamples stay as they were.
 */
export function withPolicy(
  fixture: Fixture,
  declared: PolicyDeclaration | undefined,
  handler: string,
): FixtureWithPolicy {
  if (declared === undefined) return fixture;
  return { ...fixture, policy: resolvePolicy(declared, handler) };
}

/** A shard's seed: distinct per shard, the same on every machine. */
export function shardSeed(seed: number, index: number): number {
  return (seed * 31 + index * 1_000_003) | 0;
}
