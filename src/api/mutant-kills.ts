/**
 * Runs a mutant catalogue for `receiptcheck mutants`, on either engine: every catalogued mutant in
 * the mode the catalogue names, the references in each of those modes, and on SQLite, for each,
 * the operation's scenarios alone (the article's for `set-interval`, `scenarios/<operation>/` for
 * the others). Every target goes through `checkHandler`, whose runner dispatches a PostgreSQL
 * plugin to its engine, so both engines share one pipeline and its defaults. Returns the kill
 * results the pure kill-matrix renderer reads, plus the counterexamples.
 */

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MutantEntry } from '../handlers/catalogue.ts';
import { catalogueOf, operationCatalogue } from '../handlers/registry.ts';
import type { KillResult } from '../report/kill-matrix.ts';
import type { CaseFile } from '../types/case-file.ts';
import type { Mode } from '../types/mode.ts';
import type { CheckOptions } from '../types/options.ts';
import type { CheckResult, Counterexample } from '../types/results.ts';
import { checkHandler } from './check-handler.ts';
import { listCaseFiles, loadCaseFile } from './load-case-file.ts';
import { runCase } from './run-case.ts';

/** The article's 12 cases, shipped with receiptcheck: the "scenarios alone" column. */
export const ARTICLE_SCENARIOS_DIR = fileURLToPath(
  new URL('../../scenarios/article', import.meta.url),
);

/** The scenarios shipped for `operation`: the article's, or `scenarios/<operation>/`. */
export function scenariosDirOf(operation = 'set-interval'): string {
  if (operation === 'set-interval') return ARTICLE_SCENARIOS_DIR;
  return fileURLToPath(new URL(`../../scenarios/${operation}`, import.meta.url));
}

/** The engines whose catalogues `mutants` runs. */
export const MUTANT_ENGINES = ['sqlite', 'postgres'] as const;

/** An engine `mutants` runs a catalogue on. */
export type MutantEngine = (typeof MUTANT_ENGINES)[number];

/** The catalogue `mutants` runs: `operation`'s mutants on `engine`. */
export function mutantCatalogue(
  operation?: string,
  engine: MutantEngine = 'sqlite',
): readonly MutantEntry[] {
  return catalogueOf(operation, engine);
}

/**
 * The correct handlers that must hold beside a catalogue: `reference` on SQLite, and on
 * PostgreSQL every reference `operation`'s catalogue lists for it.
 */
export function referenceNames(
  engine: MutantEngine = 'sqlite',
  operation = 'set-interval',
): readonly string[] {
  if (engine === 'sqlite') return ['reference'];
  return (operationCatalogue(operation)?.references ?? [])
    .filter((r) => r.engine === engine)
    .map((r) => r.name);
}

/** One handler to measure. */
export interface KillTarget {
  readonly name: string;
  readonly kind: 'mutant' | 'reference';
  readonly mode: Mode;
}

/** A measured handler: the kill result and, when killed, its counterexample. */
export interface Measured {
  readonly result: KillResult;
  readonly check: CheckResult;
  readonly counterexample?: Counterexample;
}

/**
 * Each reference once per mode the catalogue uses (it must hold in each), then every mutant. Run
 * them with `operation` in the options, so `reference` is that operation's.
 */
export function killTargets(operation?: string, engine: MutantEngine = 'sqlite'): KillTarget[] {
  const catalogue = mutantCatalogue(operation, engine);
  const modes = [...new Set(catalogue.map((m) => m.mode))];
  return [
    ...referenceNames(engine, operation).flatMap((name) =>
      modes.map((mode) => ({ name, kind: 'reference' as const, mode })),
    ),
    ...catalogue.map((m) => ({ name: m.name, kind: 'mutant' as const, mode: m.mode })),
  ];
}

/** Checks one target with `options` (runs, seed, workers) and runs the scenarios against it. */
export async function measureKill(
  target: KillTarget,
  options: CheckOptions,
  scenarios: readonly CaseFile[],
): Promise<Measured> {
  const check = await checkHandler({ ...options, handler: target.name, mode: target.mode });
  const cx = check.counterexample;
  let killedByScenarios: boolean | undefined;
  if (scenarios.length > 0) {
    killedByScenarios = false;
    for (const c of scenarios) {
      const r = await runCase(c, { handler: target.name });
      if (r.verdict === 'failed') {
        killedByScenarios = true;
        break;
      }
    }
  }
  return {
    check,
    ...(cx ? { counterexample: cx } : {}),
    result: {
      name: target.name,
      kind: target.kind,
      mode: target.mode,
      killed: check.verdict === 'failed',
      ms: check.elapsedMs,
      ...(cx ? { runsToKill: cx.runsToFailure, shrunkLength: cx.steps.length } : {}),
      ...(killedByScenarios !== undefined ? { killedByScenarios } : {}),
    },
  };
}

/** The case files in `dir` (default: the article's), parsed; empty when the folder is absent. */
export function articleScenarios(dir = ARTICLE_SCENARIOS_DIR): CaseFile[] {
  return existsSync(dir) ? listCaseFiles(dir).map(loadCaseFile) : [];
}

/** How a race mutant fared on real threads: information only, since timing decides it. */
export interface ThreadKill {
  readonly name: string;
  readonly killed: boolean;
  readonly runs: number;
  readonly runsToKill?: number;
  readonly ms: number;
}

/**
 * The race mutants (those the catalogue kills in scheduled mode) checked once more in concurrent
 * mode on real threads, with the same options. Never a verdict: on a loaded machine real threads
 * may not overlap, which is why the catalogue's own mode is the scheduler.
 */
export async function threadKills(options: CheckOptions): Promise<ThreadKill[]> {
  const out: ThreadKill[] = [];
  for (const m of catalogueOf(options.operation).filter((e) => e.mode === 'scheduled')) {
    const check = await checkHandler({ ...options, handler: m.name, mode: 'concurrent' });
    const cx = check.counterexample;
    out.push({
      name: m.name,
      killed: check.verdict === 'failed',
      runs: check.runs,
      ...(cx ? { runsToKill: cx.runsToFailure } : {}),
      ms: check.elapsedMs,
    });
  }
  return out;
}
