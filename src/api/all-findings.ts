/**
 * All-findings exploring: instead of stopping at the first failing run, go on through the run
 * budget, shrink every failing run, and group the shrunk cases by signature (the rule broken and
 * the shape of the case, `report/finding-signature.ts`) into findings, each counted. A finding
 * whose signature a known-findings file lists is marked known. Used by `checkHandler` with
 * `allFindings`.
 */
import type fc from 'fast-check';
import { InterruptedError, isInterruptedError } from '../errors.ts';
import type { GeneratedCase } from '../execute/mode-runner.ts';
import { type Interruption, interruption } from '../execute/runtime/interrupt.ts';
import { findingSignature, signatureId } from '../report/finding-signature.ts';
import { knownMatch } from '../report/known-findings.ts';
import type { KnownFindings } from '../types/findings.ts';
import type { CheckResult, Counterexample, Finding } from '../types/results.ts';
import { type ExploreOptions, explore } from './explore.ts';
import type { JudgedRun, JudgedRunner } from './judged-runner.ts';
import { type CounterexampleContext, shrunkCounterexample } from './shrunk-counterexample.ts';

/**
 * How the runs ended, and the findings among them in the order first found. `interrupted`: a
 * signal stopped exploring or shrinking; the findings are those shrunk before it.
 */
export type ExploredAll =
  | { readonly kind: 'held' | 'timedOut'; readonly findings: readonly Finding[] }
  | {
      readonly kind: 'interrupted';
      readonly findings: readonly Finding[];
      readonly stopped: Interruption;
    };

/** Explores every run of the budget, shrinking and grouping each failure. */
export async function exploreAllFindings(
  runner: JudgedRunner,
  arbitrary: fc.Arbitrary<GeneratedCase>,
  o: ExploreOptions,
  context: Omit<CounterexampleContext, 'progress'>,
  known: KnownFindings | undefined,
): Promise<ExploredAll> {
  const findings = new Map<string, Finding>();
  let from = o.from ?? 0;
  try {
    for (;;) {
      const explored = await explore(runner, arbitrary, { ...o, from });
      if (explored.kind !== 'failed')
        return { kind: explored.kind, findings: [...findings.values()] };
      const { counterexample, run } = await shrunkCounterexample(runner, arbitrary, explored, {
        ...context,
        progress: `at run ${explored.index + 1} of ${o.runs}`,
      });
      addFinding(findings, counterexample, run, known);
      from = explored.index + 1;
    }
  } catch (thrown) {
    // A long search stopped by Ctrl-C keeps what it found; a failure still shrinking is dropped.
    const stopped = interruption();
    if (stopped) return { kind: 'interrupted', findings: [...findings.values()], stopped };
    throw thrown;
  }
}

/** Counts `cx` into its finding, or starts a new one. */
function addFinding(
  findings: Map<string, Finding>,
  cx: Counterexample,
  run: JudgedRun,
  known: KnownFindings | undefined,
): void {
  const signature = findingSignature({
    steps: cx.steps,
    failures: cx.failures,
    observations: run.trace.observations,
    detail: cx.detail,
    spec: cx.spec,
    mode: cx.mode,
  });
  const id = signatureId(signature);
  const seen = findings.get(id);
  if (seen) {
    findings.set(id, { ...seen, count: seen.count + 1 });
    return;
  }
  const match = knownMatch(known, signature);
  findings.set(id, {
    ...signature,
    id,
    count: 1,
    known: match !== undefined,
    ...(match?.note !== undefined ? { note: match.note } : {}),
    counterexample: cx,
  });
}

/** The findings of several parts (modes, seeds) as one list: equal signatures add their counts. */
export function mergeFindings(parts: readonly (readonly Finding[])[]): Finding[] {
  const merged = new Map<string, Finding>();
  for (const f of parts.flat()) {
    const seen = merged.get(f.id);
    merged.set(f.id, seen ? { ...seen, count: seen.count + f.count } : f);
  }
  return [...merged.values()];
}

/**
 * An all-findings check stopped by SIGINT or SIGTERM, carrying what the runs before the signal
 * found (`partial`: their counts and findings, not a verdict), so that a long search cut short
 * still reports and saves them.
 */
export class InterruptedWithFindings extends InterruptedError {
  readonly partial: CheckResult;

  constructor(interrupted: InterruptedError, partial: CheckResult) {
    super(interrupted.signal, interrupted.message);
    this.partial = partial;
  }
}

/** Whether `thrown` is an interruption that carries the findings so far. */
export function isInterruptedWithFindings(thrown: unknown): thrown is InterruptedWithFindings {
  return thrown instanceof InterruptedWithFindings;
}

/**
 * `thrown` with the parts checked before it (earlier modes or seeds) joined to what it carries:
 * an interruption becomes one carrying them all, when there is any; anything else is unchanged.
 */
export function withPartsBefore(
  thrown: unknown,
  before: readonly CheckResult[],
  join: (parts: readonly CheckResult[]) => CheckResult,
): unknown {
  if (!isInterruptedError(thrown)) return thrown;
  const parts = isInterruptedWithFindings(thrown) ? [...before, thrown.partial] : before;
  return parts.length > 0 ? new InterruptedWithFindings(thrown, join(parts)) : thrown;
}
