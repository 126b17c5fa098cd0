/**
 * The mutant kill matrix as data and as text: one row per handler, saying whether the checker
 * killed it (or, for the reference, whether it held), how many runs and how long that took, how
 * short the shrunk counterexample was, and whether the article's 12 scenarios alone catch it,
 * which shows what generated checking adds over hand-written cases. Pure: the caller runs
 * the checks and the scenarios and passes their results in; rendering only formats.
 */

/** What running one handler produced; the `receiptcheck mutants` command collects these. */
import type { Mode } from '../types/mode.ts';
export interface KillResult {
  /** Handler name, e.g. `payload-unchecked` or `reference`. */
  readonly name: string;
  /** `reference` must hold; a `mutant` must be killed. Default `mutant`. */
  readonly kind?: 'mutant' | 'reference';
  /** The mode it was checked in. */
  readonly mode: Mode;
  /** Whether the checker found a counterexample. */
  readonly killed: boolean;
  /** Runs until the first failure; ignored when not killed. */
  readonly runsToKill?: number;
  /** Wall time of the check, in ms. */
  readonly ms: number;
  /** `counterexample.steps.length` after shrinking; ignored when not killed. */
  readonly shrunkLength?: number;
  /** Whether the article's scenarios alone fail on it; undefined when they were not run. */
  readonly killedByScenarios?: boolean;
}

/** How a row came out: as it should (`killed`, `held`) or not (`survived`, `failed`). */
export type RowStatus = 'killed' | 'survived' | 'held' | 'failed';

/** One row of the matrix: the result, judged, with every cell already as text. */
export interface KillMatrixRow {
  readonly name: string;
  readonly mode: Mode;
  readonly status: RowStatus;
  /** True when the status is what this kind of handler must achieve. */
  readonly asExpected: boolean;
  readonly runsToKill: string;
  readonly time: string;
  readonly shrunkLength: string;
  readonly scenarios: string;
}

/** The matrix's verdict: `ok` when every mutant was killed and every reference held. */
export interface KillMatrixSummary {
  readonly verdict: 'ok' | 'failed';
  readonly mutants: number;
  readonly killed: number;
  /** Names of mutants the checker did not kill. */
  readonly survivors: readonly string[];
  /** Names of reference handlers the checker failed. */
  readonly failedReferences: readonly string[];
  /** Mutants the scenarios killed, out of those they were run on. */
  readonly scenariosKilled: number;
  readonly scenariosRun: number;
}

const HEADERS = ['handler', 'mode', 'result', 'runs to kill', 'time', 'shrunk', 'scenarios'];
const DASH = '-';

/** Judges each result and formats its cells. Order is kept. */
export function killMatrixRows(results: readonly KillResult[]): KillMatrixRow[] {
  return results.map((r) => {
    const reference = r.kind === 'reference';
    const status: RowStatus = reference
      ? r.killed
        ? 'failed'
        : 'held'
      : r.killed
        ? 'killed'
        : 'survived';
    return {
      name: r.name,
      mode: r.mode,
      status,
      asExpected: status === 'killed' || status === 'held',
      runsToKill: r.killed && r.runsToKill !== undefined ? String(r.runsToKill) : DASH,
      time: formatMs(r.ms),
      shrunkLength:
        r.killed && r.shrunkLength !== undefined
          ? `${r.shrunkLength} step${r.shrunkLength === 1 ? '' : 's'}`
          : DASH,
      scenarios: scenarioCell(r.killedByScenarios, reference),
    };
  });
}

/** Counts and the overall verdict; `verdict` decides the `mutants` command's exit code. */
export function summarizeKills(results: readonly KillResult[]): KillMatrixSummary {
  const mutants = results.filter((r) => r.kind !== 'reference');
  const withScenarios = mutants.filter((r) => r.killedByScenarios !== undefined);
  const survivors = mutants.filter((r) => !r.killed).map((r) => r.name);
  const failedReferences = results
    .filter((r) => r.kind === 'reference' && r.killed)
    .map((r) => r.name);
  return {
    verdict: survivors.length === 0 && failedReferences.length === 0 ? 'ok' : 'failed',
    mutants: mutants.length,
    killed: mutants.length - survivors.length,
    survivors,
    failedReferences,
    scenariosKilled: withScenarios.filter((r) => r.killedByScenarios).length,
    scenariosRun: withScenarios.length,
  };
}

/**
 * The matrix as a plain-text table (columns padded, no colour), followed by one summary line,
 * e.g. `14/14 mutants killed; reference held; scenarios alone kill 6/14`.
 */
export function renderKillMatrix(results: readonly KillResult[]): string {
  const rows = killMatrixRows(results).map((r) => [
    r.name,
    r.mode,
    r.asExpected ? r.status : `${r.status.toUpperCase()} !`,
    r.runsToKill,
    r.time,
    r.shrunkLength,
    r.scenarios,
  ]);
  const widths = HEADERS.map((h, i) =>
    Math.max(h.length, ...rows.map((row) => cell(row, i).length)),
  );
  const line = (row: readonly string[]) =>
    row
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(HEADERS), rule, ...rows.map(line), '', summaryLine(summarizeKills(results))].join(
    '\n',
  );
}

function summaryLine(s: KillMatrixSummary): string {
  const parts = [`${s.killed}/${s.mutants} mutants killed`];
  if (s.survivors.length > 0) parts.push(`survived: ${s.survivors.join(', ')}`);
  parts.push(
    s.failedReferences.length > 0
      ? `reference FAILED: ${s.failedReferences.join(', ')}`
      : 'reference held',
  );
  if (s.scenariosRun > 0) parts.push(`scenarios alone kill ${s.scenariosKilled}/${s.scenariosRun}`);
  return parts.join('; ');
}

function scenarioCell(killedByScenarios: boolean | undefined, reference: boolean): string {
  if (killedByScenarios === undefined) return DASH;
  if (reference) return killedByScenarios ? 'FAILED !' : 'pass';
  return killedByScenarios ? 'killed' : 'missed';
}

function cell(row: readonly string[], i: number): string {
  return row[i] ?? '';
}

/** `850 ms` below ten seconds, `12.3 s` above. */
export function formatMs(ms: number): string {
  return ms < 10_000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
