/**
 * `receiptcheck mutants --engine postgres`: the PostgreSQL mutant catalogue in scheduled mode on
 * a real server (the embedded one, or $RECEIPTCHECK_DATABASE_URL's), the PostgreSQL references
 * beside it; the kill matrix, and exit 0 when every mutant is killed and every reference holds.
 */
import {
  PG_CHECK_RUNS,
  type PgCheckOptions,
  pgCatalogueOf,
  postgresMutantKills,
} from '../../api/postgres-scheduled-check.ts';
import { stopEmbeddedPostgres } from '../../execute/postgres/server.ts';
import { operationNamed } from '../../model/operations/index.ts';
import { encodeJson } from '../../report/encode.ts';
import { formatCounterexample } from '../../report/format-counterexample.ts';
import { killMatrixRows, renderKillMatrix, summarizeKills } from '../../report/kill-matrix.ts';
import type { CliContext } from '../cli-context.ts';
import { EXIT } from '../exit-codes.ts';

/** The engines `mutants` knows. */
export const MUTANT_ENGINES = ['sqlite', 'postgres'] as const;

/** What `mutants --engine postgres` reads of the command's flags. */
export interface PgMutantsFlags {
  readonly list?: boolean;
  readonly operation?: string;
  readonly runs?: number;
  readonly seed?: number;
  readonly json?: boolean;
  readonly verbose?: boolean;
}

/** Runs (or, with `--list`, lists) the PostgreSQL catalogue; sets the exit code. */
export async function postgresMutants(ctx: CliContext, flags: PgMutantsFlags): Promise<void> {
  if (flags.operation !== undefined) operationNamed(flags.operation); // unknown: E_USAGE
  const catalogue = pgCatalogueOf(flags.operation);
  if (flags.list) {
    ctx.io.stdout(formatPgCatalogue(flags.operation ?? 'set-interval', catalogue));
    return;
  }
  const options: PgCheckOptions = {
    runs: flags.runs ?? PG_CHECK_RUNS,
    ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
  };
  let measured: Awaited<ReturnType<typeof postgresMutantKills>>;
  try {
    measured = await postgresMutantKills(
      options,
      (name, i, count) =>
        ctx.io.progressStream?.write(
          `\r\x1b[K[${i + 1}/${count}] ${name} (scheduled, PostgreSQL)…`,
        ),
      flags.operation,
    );
  } finally {
    ctx.io.progressStream?.write('\r\x1b[K');
    await stopEmbeddedPostgres();
  }
  const results = measured.map((m) => m.result);
  const summary = summarizeKills(results);
  const seed = measured[0]?.check.seed;
  const matrix = renderKillMatrix(results);
  if (flags.json)
    ctx.io.stdout(
      `${encodeJson({ verdict: summary.verdict === 'ok' ? 'passed' : 'failed', engine: 'postgres', seed, summary, rows: killMatrixRows(results), results })}\n`,
    );
  else ctx.io.stdout(`${matrix}\nseed ${seed} (set with --seed or RECEIPTCHECK_SEED)\n`);
  if (flags.json) ctx.io.stderr(`${matrix}\n`);
  // A reference that failed is shown in full: that is a bug in receiptcheck or the server.
  for (const m of measured)
    if (m.result.kind === 'reference' && m.check.counterexample)
      ctx.io.stderr(`${formatCounterexample(m.check.counterexample)}\n`);
  ctx.exitCode = summary.verdict === 'ok' ? EXIT.ok : EXIT.failed;
}

function formatPgCatalogue(operation: string, catalogue: ReturnType<typeof pgCatalogueOf>): string {
  const lines = [
    `PostgreSQL mutants of ${operation} (each killed in scheduled mode on a real server):`,
    '',
  ];
  for (const m of catalogue.mutants)
    lines.push(
      `  ${m.name} (${m.mode})`,
      `      bug:   ${m.bug}`,
      `      class: ${m.realWorldClass}`,
    );
  lines.push(
    '',
    `References that must hold: ${catalogue.references.map((p) => p.name).join(', ')}`,
    '',
  );
  return lines.join('\n');
}
