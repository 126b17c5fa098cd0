/**
 * `receiptcheck mutants`: runs every catalogued mutant and the reference, and prints the kill
 * matrix (runs to kill, time, shrunk length, and whether the article's scenarios alone catch it).
 * Exit 1 when a mutant survives or the reference fails; `--list` prints the catalogue.
 */

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { saveCounterexample } from '../../api/counterexample-store.ts';
import {
  articleScenarios,
  killTargets,
  type Measured,
  measureKill,
  scenariosDirOf,
  type ThreadKill,
  threadKills,
} from '../../api/mutant-kills.ts';
import { ReceiptcheckError } from '../../errors.ts';
import { UNCATALOGUED_BUGS } from '../../handlers/mutant-catalogue.ts';
import { BUNDLED_HANDLERS, catalogueOf } from '../../handlers/registry.ts';
import { operationNamed } from '../../model/operations/index.ts';
import { encodeJson } from '../../report/encode.ts';
import { formatCounterexample } from '../../report/format-counterexample.ts';
import { formatJunit } from '../../report/format-junit.ts';
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
import { MUTANT_ENGINES, postgresMutants } from './mutants-postgres.ts';

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
      if (flags.engine !== undefined && flags.engine !== 'sqlite') {
        if (flags.engine !== 'postgres')
          throw new ReceiptcheckError(
            'E_USAGE',
            `--engine must be one of ${MUTANT_ENGINES.join(', ')}, not "${flags.engine}"`,
          );
        return postgresMutants(ctx, flags);
      }
      if (flags.operation !== undefined) operationNamed(flags.operation); // unknown: E_USAGE
      if (flags.list) {
        ctx.io.stdout(formatCatalogue(flags.operation));
        return;
      }
      const options: CheckOptions = {
        ...(flags.operation !== undefined ? { operation: flags.operation } : {}),
        ...(flags.runs !== undefined ? { runs: flags.runs } : {}),
        ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
        ...(flags.workers !== undefined ? { workers: flags.workers } : {}),
      };
      const scenarios = flags.scenarios ? articleScenarios(scenariosDirOf(flags.operation)) : [];
      const targets = killTargets(flags.operation).filter(
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
      const races = catalogueOf(flags.operation).some((m) => m.mode === 'scheduled');
      const threads =
        flags.threads && races && (!flags.mode || flags.mode === 'scheduled')
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
                  reproducesDeterministically: file.reproduction?.found === true,
                }),
              );
          }
      const summary = summarizeKills(results);
      const seed = measured[0]?.check.seed;
      if (flags.junit) writeTextFile(flags.junit, junit(measured, saved, pages, seed), '--junit');
      const matrix = renderKillMatrix(results);
      if (flags.json) {
        ctx.io.stdout(
          `${encodeJson({ verdict: summary.verdict === 'ok' ? 'passed' : 'failed', seed, summary, rows: killMatrixRows(results), results, threads, files: Object.fromEntries(saved), timelines: Object.fromEntries(pages) })}\n`,
        );
        ctx.io.stderr(`${matrix}\n${formatThreadKills(threads)}${pagesLine(pages, flags.html)}`);
      } else
        ctx.io.stdout(
          `${matrix}\n${formatThreadKills(threads)}${pagesLine(pages, flags.html)}\nseed ${seed} (set with --seed or RECEIPTCHECK_SEED)\n`,
        );
      ctx.exitCode = summary.verdict === 'ok' ? EXIT.ok : EXIT.failed;
    });
}

/** Where the killed mutants' pages went, when `--html` was given. */
function pagesLine(pages: ReadonlyMap<string, string>, dir?: string): string {
  if (dir === undefined) return '';
  return `\ntimelines: ${pages.size} page(s) in ${dir}, one per killed mutant (open NAME.html in a browser)\n`;
}

/** The real-thread lines: what timing gave this time, never part of the verdict. */
function formatThreadKills(threads: readonly ThreadKill[]): string {
  if (threads.length === 0) return '';
  const lines = [
    '',
    'Race mutants on real threads (concurrent mode; information only, timing decides it):',
  ];
  const width = Math.max(22, ...threads.map((t) => t.name.length));
  for (const t of threads)
    lines.push(
      `  ${t.name.padEnd(width)} ${t.killed ? `killed at run ${t.runsToKill}` : `not seen in ${t.runs} runs`} (${Math.round(t.ms)} ms)`,
    );
  return `${lines.join('\n')}\n`;
}

function formatCatalogue(operation?: string): string {
  const lines = [
    `Mutants of ${operation ?? 'set-interval'} (each a small variation of the reference with one bug):`,
    '',
  ];
  for (const m of catalogueOf(operation))
    lines.push(
      `  ${m.name} (${m.mode})`,
      `      bug:   ${m.bug}`,
      `      class: ${m.realWorldClass}`,
    );
  lines.push('', 'Not catalogued on purpose:');
  for (const b of UNCATALOGUED_BUGS) lines.push(`  ${b.bug}: ${b.reason}`);
  const others = BUNDLED_HANDLERS.filter((h) => h.kind !== 'mutant').map(
    (h) => `${h.name} (${h.kind})`,
  );
  lines.push('', `Other bundled handlers: ${others.join(', ')}`, '');
  return lines.join('\n');
}

function junit(
  measured: readonly Measured[],
  saved: Map<string, string>,
  pages: Map<string, string>,
  seed?: number,
): string {
  const rows = killMatrixRows(measured.map((m) => m.result));
  return formatJunit({
    name: 'receiptcheck mutants',
    ...(seed !== undefined ? { properties: { seed } } : {}),
    cases: measured.map((m, i) => {
      const row = rows[i];
      const name = `${m.result.name} (${m.result.mode}) is ${m.result.kind === 'reference' ? 'held' : 'killed'}`;
      const page = pages.get(m.result.name);
      const base = {
        name,
        classname: `receiptcheck.mutants.${m.result.kind}`,
        timeMs: m.result.ms,
        // A killed mutant passes, and its page still shows what killed it.
        ...(page ? { attachments: [{ name: 'timeline', path: resolve(page) }] } : {}),
      };
      if (!row || row.asExpected) return base;
      const cx = m.counterexample;
      const savedPath = saved.get(m.result.name);
      const text = cx
        ? formatCounterexample(cx, savedPath ? { savedPath } : {})
        : `${m.result.name} survived ${m.check.runs} generated runs (seed ${m.check.seed}); raise --runs or strengthen the generators`;
      return { ...base, failure: { message: `${m.result.name}: ${row.status}`, text } };
    }),
  });
}
