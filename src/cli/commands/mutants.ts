/**
 * `receiptcheck mutants`: runs every catalogued mutant and the reference, and prints the kill
 * matrix (runs to kill, time, shrunk length, and whether the article's scenarios alone catch it).
 * Exit 1 when a mutant survives or the reference fails; `--list` prints the catalogue. With
 * `--engine postgres` the same path runs the PostgreSQL catalogue on a real server.
 */

import type { Command } from 'commander';
import { saveCounterexample } from '../../api/counterexample-store.ts';
import {
  articleScenarios,
  killTargets,
  type Measured,
  MUTANT_ENGINES,
  type MutantEngine,
  measureKill,
  mutantCatalogue,
  scenariosDirOf,
  threadKills,
} from '../../api/mutant-kills.ts';
import { ReceiptcheckError } from '../../errors.ts';
import { stopEmbeddedPostgres } from '../../execute/postgres/server.ts';
import { operationNamed } from '../../model/operations/index.ts';
import { encodeJson } from '../../report/encode.ts';
import { formatCounterexample } from '../../report/format-counterexample.ts';
import { reproducesDeterministically } from '../../report/format-summary.ts';
import {
  type KillResult,
  killMatrixRows,
  renderKillMatrix,
  summarizeKills,
} from '../../report/kill-matrix.ts';
import type { Mode } from '../../types/mode.ts';
import type { CheckOptions } from '../../types/options.ts';
import type { CliContext } from '../cli-context.ts';
import { DEFAULTS, ENV_HELP, helpBlocks, MODES_TEXT } from '../command-help.ts';
import { EXIT } from '../exit-codes.ts';
import { parseInteger, parseMode } from '../parse-flags.ts';
import { writeCaseTimeline } from '../timeline-file.ts';
import { writeTextFile } from '../write-text-file.ts';
import { formatCatalogue, formatThreadKills, junit, pagesLine } from './mutants-output.ts';

interface MutantsFlags {
  list?: boolean;
  engine?: string;
  operation?: string;
  runs?: number;
  seed?: number;
  workers?: number;
  mode?: Mode;
  scenarios: boolean;
  threads: boolean;
  json?: boolean;
  junit?: string;
  out?: string;
  html?: string;
  verbose?: boolean;
}

/** Registers `mutants`. */
export function registerMutants(program: Command, ctx: CliContext): void {
  program
    .command('mutants')
    .description('run every bundled mutant and the reference; print the kill matrix')
    .option('--list', 'print the catalogue (name, mode, bug, real-world class) and exit')
    .option(
      '--engine <engine>',
      'sqlite (default), or postgres: the PostgreSQL catalogue in scheduled mode on a real server',
    )
    .option(
      '--operation <name>',
      "whose catalogue: set-interval (default), create-once, adjust-balance, transfer (see 'receiptcheck operations'); with --engine postgres: set-interval, transfer",
    )
    .option(
      '--runs <n>',
      `generated sequences per handler (default: ${DEFAULTS.runs})`,
      parseInteger,
    )
    .option(
      '--seed <s>',
      `fast-check seed (default: $RECEIPTCHECK_SEED, else ${DEFAULTS.seed})`,
      parseInteger,
    )
    .option(
      '--workers <n>',
      `worker threads for concurrent mode (default: ${DEFAULTS.workers})`,
      parseInteger,
    )
    .option(
      '--mode <mode>',
      `only the mutants the catalogue checks in this mode (${MODES_TEXT})`,
      parseMode,
    )
    .option('--no-scenarios', "skip the column that runs the article's 12 scenarios alone")
    .option(
      '--no-threads',
      'skip the information-only check of the race mutants on real threads (concurrent mode)',
    )
    .option('--json', 'print exactly one JSON object on stdout')
    .option('--junit <file>', 'also write JUnit XML, one testcase per handler')
    .option('--out <dir>', "also save each mutant's counterexample file here")
    .option(
      '--html <dir>',
      "also write each killed mutant's counterexample as an HTML timeline here (its case file goes beside it unless --out names another folder)",
    )
    .option('--verbose', 'print stacks with errors')
    .addHelpText(
      'after',
      helpBlocks(
        `Exit codes for mutants: 0 when every mutant is killed and the reference holds, 1 when a
mutant survives or the reference fails (e.g. "mutants --runs 1" lets most survive).

Each mutant runs in the mode its catalogue entry names (race mutants: scheduled mode, which
decides every interleaving itself); the reference runs in each of those modes. The race mutants
are then also run on real threads (concurrent mode) and reported for information: timing decides
whether real threads overlap, so that never sets the exit code (--no-threads skips it). Any bundled name also works with "receiptcheck run --handler NAME".

Examples:
  receiptcheck mutants --list
  receiptcheck mutants --mode sequential         the quick ones only
  receiptcheck mutants --operation create-once   the create-once catalogue
  receiptcheck mutants --engine postgres         the PostgreSQL catalogue (scheduled, real server)
  receiptcheck mutants --json > kill-matrix.json
  receiptcheck mutants --mode scheduled --html out/   a timeline of each race mutant's counterexample`,
        ENV_HELP,
      ),
    )
    .action(async (flags: MutantsFlags) => {
      const engine = engineOf(flags.engine);
      if (flags.operation !== undefined) operationNamed(flags.operation); // unknown: E_USAGE
      if (engine === 'postgres' && mutantCatalogue(flags.operation, engine).length === 0)
        throw new ReceiptcheckError(
          'E_USAGE',
          `operation "${flags.operation}" has no PostgreSQL mutant catalogue (set-interval and transfer have one)`,
        );
      if (flags.list) {
        ctx.io.stdout(formatCatalogue(flags.operation, engine));
        return;
      }
      try {
        await runMutants(ctx, flags, engine);
      } finally {
        // The embedded server would linger a moment after the last check: stopped now, for a clean exit.
        if (engine === 'postgres') await stopEmbeddedPostgres();
      }
    });
}

/** The engine `--engine` names (default SQLite); `E_USAGE` for any other. */
function engineOf(engine: string | undefined): MutantEngine {
  if (engine === undefined) return 'sqlite';
  if ((MUTANT_ENGINES as readonly string[]).includes(engine)) return engine as MutantEngine;
  throw new ReceiptcheckError(
    'E_USAGE',
    `--engine must be one of ${MUTANT_ENGINES.join(', ')}, not "${engine}"`,
  );
}

/** Measures every target of the engine's catalogue and prints the kill matrix; sets the exit code. */
async function runMutants(ctx: CliContext, flags: MutantsFlags, engine: MutantEngine) {
  const options: CheckOptions = {
    ...(flags.operation !== undefined ? { operation: flags.operation } : {}),
    ...(flags.runs !== undefined ? { runs: flags.runs } : {}),
    ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    ...(flags.workers !== undefined ? { workers: flags.workers } : {}),
  };
  // The shipped scenarios are SQLite case files: the column is SQLite's.
  const scenarios =
    flags.scenarios && engine === 'sqlite' ? articleScenarios(scenariosDirOf(flags.operation)) : [];
  const targets = killTargets(flags.operation, engine).filter(
    (t) => !flags.mode || t.mode === flags.mode,
  );
  const measured: Measured[] = [];
  for (const [i, target] of targets.entries()) {
    ctx.io.progressStream?.write(
      `\r\x1b[K[${i + 1}/${targets.length}] ${target.name} (${target.mode})…`,
    );
    measured.push(await measureKill(target, options, scenarios));
  }
  ctx.io.progressStream?.write('\r\x1b[K');
  const races = mutantCatalogue(flags.operation, engine).some((m) => m.mode === 'scheduled');
  // Real threads are SQLite's concurrent mode: the race mutants' information-only second look.
  const threads =
    flags.threads && engine === 'sqlite' && races && (!flags.mode || flags.mode === 'scheduled')
      ? await threadKills(options)
      : [];
  const results: KillResult[] = measured.map((m) => m.result);
  const saved = new Map<string, string>();
  const pages = new Map<string, string>();
  // A page's replay command needs the case file, so --html alone saves it beside the page.
  const dir = flags.out ?? flags.html;
  if (dir)
    for (const m of measured)
      if (m.counterexample && m.result.kind === 'mutant') {
        const file = await saveCounterexample(m.counterexample, dir);
        saved.set(m.result.name, file.path);
        if (flags.html)
          pages.set(
            m.result.name,
            writeCaseTimeline(m.counterexample, file.path, flags.html, {
              reproducesDeterministically: reproducesDeterministically(file.reproduction),
            }),
          );
      }
  const summary = summarizeKills(results);
  const seed = measured[0]?.check.seed;
  if (flags.junit) writeTextFile(flags.junit, junit(measured, saved, pages, seed), '--junit');
  const matrix = renderKillMatrix(results);
  if (flags.json) {
    ctx.io.stdout(
      `${encodeJson({ verdict: summary.verdict === 'ok' ? 'passed' : 'failed', engine, seed, summary, rows: killMatrixRows(results), results, threads, files: Object.fromEntries(saved), timelines: Object.fromEntries(pages) })}\n`,
    );
    ctx.io.stderr(`${matrix}\n${formatThreadKills(threads)}${pagesLine(pages, flags.html)}`);
  } else
    ctx.io.stdout(
      `${matrix}\n${formatThreadKills(threads)}${pagesLine(pages, flags.html)}\nseed ${seed} (set with --seed or RECEIPTCHECK_SEED)\n`,
    );
  // A reference that failed is shown in full: that is a bug in receiptcheck (or the server).
  for (const m of measured)
    if (m.result.kind === 'reference' && m.counterexample)
      ctx.io.stderr(`${formatCounterexample(m.counterexample)}\n`);
  ctx.exitCode = summary.verdict === 'ok' ? EXIT.ok : EXIT.failed;
}
