/**
 * Checks a PostgreSQL plugin in scheduled mode, and runs the PostgreSQL mutant catalogue: the
 * same pipeline as `checkHandler` (generate with the mode's case arbitrary, execute, judge,
 * explore in fast-check's order, shrink the first failure), on the scheduled PostgreSQL runner.
 * For `receiptcheck mutants --engine postgres` and the tests, until plugin loading dispatches
 * PostgreSQL plugins to every mode.
 */

import { ReceiptcheckError } from '../errors.ts';
import { postgresScheduledRunner } from '../execute/postgres/scheduled/scheduled-mode.ts';
import {
  TRANSFER_PG_MUTANTS,
  TRANSFER_PG_REFERENCES,
} from '../handlers/operations/transfer/postgres/catalogue.ts';
import { pluginOperation } from '../handlers/plugin.ts';
import {
  PG_MUTANT_CATALOGUE,
  PG_REFERENCES,
  type PgMutantEntry,
} from '../handlers/postgres/mutants/catalogue.ts';
import type { PostgresHandlerPlugin } from '../handlers/postgres/plugin.ts';
import { DEFAULT_OPERATION } from '../model/operations/index.ts';
import type { FixtureWithPolicy } from '../model/state.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import type { KillResult } from '../report/kill-matrix.ts';
import { DEFAULT_SEED } from '../types/options.ts';
import type { Counterexample } from '../types/results.ts';
import { explore } from './explore.ts';
import { judgedRunner } from './judged-runner.ts';
import { shrunkCounterexample } from './shrunk-counterexample.ts';

/** Runs per handler by default: every PostgreSQL mutant dies well within it at the default seed. */
export const PG_CHECK_RUNS = 100;

/** What a scheduled PostgreSQL check takes; every field has a default. */
export interface PgCheckOptions {
  /** Generated sequences. Default `PG_CHECK_RUNS`. */
  readonly runs?: number;
  /** fast-check seed. Default 42. */
  readonly seed?: number;
  /** Most moves per sequence. Default 20. */
  readonly stepsMax?: number;
  /** Per-call budget in ms. Default 10,000. */
  readonly callTimeoutMs?: number;
  /** An existing server; default the environment's, else the embedded one. */
  readonly databaseUrl?: string;
  /** Called after every run. */
  readonly onRun?: (runs: number) => void;
}

/** How a scheduled PostgreSQL check came out. */
export interface PgCheckResult {
  readonly handlerName: string;
  readonly verdict: 'passed' | 'failed';
  readonly seed: number;
  readonly runs: number;
  readonly elapsedMs: number;
  readonly counterexample?: Counterexample;
}

/** Checks `plugin` in scheduled mode on PostgreSQL; the first failure is shrunk. */
export async function checkPostgresScheduled(
  plugin: PostgresHandlerPlugin,
  o: PgCheckOptions = {},
): Promise<PgCheckResult> {
  const started = performance.now();
  const seed = o.seed ?? DEFAULT_SEED;
  const callTimeoutMs = o.callTimeoutMs ?? 10_000;
  const fixture = fixtureOf(plugin);
  const raw = await postgresScheduledRunner(plugin, {
    fixture,
    callTimeoutMs,
    ...(o.databaseUrl ? { databaseUrl: o.databaseUrl } : {}),
  });
  const runner = judgedRunner(raw, fixture);
  let runs = 0;
  try {
    const arbitrary = runner.caseArbitrary({
      stepsMax: o.stepsMax ?? 20,
      races: true,
      recreate: typeof plugin.recreate === 'function',
      excludeInputClasses: [],
    });
    const explored = await explore(runner, arbitrary, {
      seed,
      runs: o.runs ?? PG_CHECK_RUNS,
      onRun: () => {
        runs++;
        o.onRun?.(runs);
      },
    });
    const base = { handlerName: plugin.name, seed, runs };
    if (explored.kind !== 'failed')
      return { ...base, verdict: 'passed', elapsedMs: performance.now() - started };
    const { counterexample } = await shrunkCounterexample(runner, arbitrary, explored, {
      handler: plugin.name,
      handlerName: plugin.name,
      mode: 'scheduled',
      seed,
      fixture,
      callTimeoutMs,
      progress: `after ${runs} runs`,
    });
    return { ...base, verdict: 'failed', elapsedMs: performance.now() - started, counterexample };
  } finally {
    await runner.close();
  }
}

/**
 * The fixture `plugin`'s operation starts from: the default one for `set-interval`, else the
 * operation's own, named in it so the model and the reports know the operation.
 */
function fixtureOf(plugin: PostgresHandlerPlugin): FixtureWithPolicy {
  const spec = pluginOperation(plugin);
  return spec === DEFAULT_OPERATION ? DEFAULT_FIXTURE : { ...spec.fixture, operation: spec.name };
}

/** The PostgreSQL mutants and references of each operation that has a PostgreSQL catalogue. */
const PG_CATALOGUES: Readonly<
  Record<
    string,
    {
      readonly mutants: readonly PgMutantEntry[];
      readonly references: readonly PostgresHandlerPlugin[];
    }
  >
> = {
  'set-interval': { mutants: PG_MUTANT_CATALOGUE, references: PG_REFERENCES },
  transfer: { mutants: TRANSFER_PG_MUTANTS, references: TRANSFER_PG_REFERENCES },
};

/** The PostgreSQL catalogue of `operation` (default `set-interval`); `E_USAGE` when it has none. */
export function pgCatalogueOf(operation = DEFAULT_OPERATION.name): {
  readonly mutants: readonly PgMutantEntry[];
  readonly references: readonly PostgresHandlerPlugin[];
} {
  const catalogue = PG_CATALOGUES[operation];
  if (!catalogue)
    throw new ReceiptcheckError(
      'E_USAGE',
      `operation "${operation}" has no PostgreSQL mutant catalogue; these do: ${Object.keys(PG_CATALOGUES).join(', ')}`,
    );
  return catalogue;
}

/** One row of the PostgreSQL kill matrix, with the check behind it. */
export interface PgMeasured {
  readonly result: KillResult;
  readonly check: PgCheckResult;
}

/**
 * The PostgreSQL references of `operation` (each must hold), then every PostgreSQL mutant of it
 * (each must be killed); `set-interval`'s by default.
 */
export async function postgresMutantKills(
  o: PgCheckOptions = {},
  onTarget?: (name: string, index: number, count: number) => void,
  operation?: string,
): Promise<PgMeasured[]> {
  const { mutants, references } = pgCatalogueOf(operation);
  const targets = [
    ...references.map((plugin) => ({ plugin, kind: 'reference' as const })),
    ...mutants.map((m) => ({ plugin: m.plugin, kind: 'mutant' as const })),
  ];
  const out: PgMeasured[] = [];
  for (const [i, t] of targets.entries()) {
    onTarget?.(t.plugin.name, i, targets.length);
    const check = await checkPostgresScheduled(t.plugin, o);
    const cx = check.counterexample;
    out.push({
      check,
      result: {
        name: t.plugin.name,
        kind: t.kind,
        mode: 'scheduled',
        killed: check.verdict === 'failed',
        ms: check.elapsedMs,
        ...(cx ? { runsToKill: cx.runsToFailure, shrunkLength: cx.steps.length } : {}),
      },
    });
  }
  return out;
}
