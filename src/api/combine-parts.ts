/**
 * How a check over several parts (modes, or seeds) shares its runs out and adds its parts' results
 * up into one: each mode's share of the runs (`AUTO_SHARES`), counts summed, the failing part's
 * counterexample kept, findings merged, and the split of runs by mode recorded for the summary.
 */
import { emptyCoverage } from '../report/coverage.ts';
import { mergeOperationCoverage } from '../report/operation-coverage.ts';
import type { CoverageKind } from '../types/coverage.ts';
import type { InputCoverage } from '../types/input-coverage.ts';
import { AUTO_SHARES, type Mode } from '../types/mode.ts';
import type { ModeShare, OperationCoverage } from '../types/operation-coverage.ts';
import type { ResolvedOptions } from '../types/options.ts';
import type { CheckResult, Finding } from '../types/results.ts';
import { mergeFindings } from './all-findings.ts';

/**
 * Each mode's runs out of `runs`, by its weight in `AUTO_SHARES` (1 for a mode it does not
 * weigh); runs the weights leave over go one each to the first modes.
 */
export function modeShares(runs: number, modes: readonly Mode[]): number[] {
  const weights = modes.map((m) => AUTO_SHARES[m] ?? 1);
  const total = weights.reduce((a, b) => a + b, 0);
  const shares = weights.map((w) => Math.floor((runs * w) / total));
  let left = runs - shares.reduce((a, b) => a + b, 0);
  for (let i = 0; left > 0; i = (i + 1) % shares.length, left--) shares[i] = (shares[i] ?? 0) + 1;
  return shares;
}

/** The `i`-th of `n` shares of `runs`, the first ones a run larger when they do not divide. */
export function share(runs: number, i: number, n: number): number {
  return Math.floor(runs / n) + (i < runs % n ? 1 : 0);
}

export function sum(parts: readonly CheckResult[], of: (p: CheckResult) => number): number {
  return parts.reduce((total, p) => total + of(p), 0);
}

/**
 * One result for the parts explored (modes, or seeds): counts added up, the failing mode's
 * counterexample; with `allFindings`, every part's findings, equal ones counted together.
 * `shares`: for parts that are modes, each mode's planned runs (a mode never reached shows 0 of
 * its share in the split).
 */
export function combine(
  parts: readonly CheckResult[],
  runsPlanned: number,
  o: ResolvedOptions,
  shares?: readonly number[],
): CheckResult {
  const last = parts[parts.length - 1];
  if (!last) throw new Error('a check ran no mode');
  const split = shares ? modeSplit(parts, o.modes, shares) : seedSplit(parts);
  if (parts.length === 1) return split.length > 1 ? { ...last, split } : last;
  const coverage = emptyCoverage();
  const inputCoverage: InputCoverage = {};
  for (const p of parts) {
    for (const [kind, n] of Object.entries(p.coverage)) coverage[kind as CoverageKind] += n;
    for (const [cls, n] of Object.entries(p.inputCoverage))
      inputCoverage[cls] = (inputCoverage[cls] ?? 0) + n;
  }
  const operationCoverage = mergedOperationCoverage(parts);
  const combined: CheckResult = {
    ...last,
    modes: [...new Set(parts.flatMap((p) => p.modes))],
    runs: sum(parts, (p) => p.runs),
    runsPlanned,
    steps: sum(parts, (p) => p.steps),
    coverage,
    inputCoverage,
    ...(operationCoverage ? { operationCoverage } : {}),
    ...(split.length > 1 ? { split } : {}),
    elapsedMs: sum(parts, (p) => p.elapsedMs),
    timedOut: parts.some((p) => p.timedOut),
  };
  return o.allFindings
    ? withFindings(combined, mergeFindings(parts.map((p) => p.findings ?? [])))
    : combined;
}

/** Each mode's runs and share, those never reached included. */
function modeSplit(
  parts: readonly CheckResult[],
  modes: readonly Mode[],
  shares: readonly number[],
): ModeShare[] {
  return modes.map((mode, i) => ({
    mode,
    runs: sum(
      parts.filter((p) => p.mode === mode),
      (p) => p.runs,
    ),
    runsPlanned: shares[i] ?? 0,
  }));
}

/** The parts' splits (each seed's) added up by mode. */
function seedSplit(parts: readonly CheckResult[]): ModeShare[] {
  const byMode = new Map<string, ModeShare>();
  for (const p of parts)
    for (const s of p.split ?? []) {
      const seen = byMode.get(s.mode);
      byMode.set(
        s.mode,
        seen
          ? {
              mode: s.mode,
              runs: seen.runs + s.runs,
              runsPlanned: seen.runsPlanned + s.runsPlanned,
            }
          : s,
      );
    }
  return [...byMode.values()];
}

function mergedOperationCoverage(parts: readonly CheckResult[]): OperationCoverage | undefined {
  const first = parts.find((p) => p.operationCoverage)?.operationCoverage;
  if (!first) return undefined;
  const merged: OperationCoverage = {
    ...first,
    edges: {},
    outcomes: {},
    refusals: {},
    groups: { total: 0, conflicting: 0 },
  };
  for (const p of parts)
    if (p.operationCoverage) mergeOperationCoverage(merged, p.operationCoverage);
  return merged;
}

/**
 * `r` with its findings: failed, with the first new finding's counterexample, when one is new;
 * passed when every finding is known (or there is none).
 */
export function withFindings(r: CheckResult, findings: readonly Finding[]): CheckResult {
  const { counterexample: _cx, ...rest } = r;
  const fresh = findings.find((f) => !f.known);
  if (!fresh) return { ...rest, verdict: 'passed', findings };
  return {
    ...rest,
    verdict: 'failed',
    mode: fresh.counterexample.mode,
    counterexample: fresh.counterexample,
    findings,
  };
}
