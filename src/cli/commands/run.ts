/**
 * `receiptcheck run`: checks one handler with generated sequences, prints the counterexample (if
 * any) and the summary, writes the counterexample file, JUnit XML and/or one JSON object.
 */

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { isInterruptedWithFindings } from '../../api/all-findings.ts';
import { checkHandler } from '../../api/check-handler.ts';
import { DEFAULT_OUT_DIR, saveCounterexample } from '../../api/counterexample-store.ts';
import { resolveOptions } from '../../api/options.ts';
import { isReceiptcheckError, messageOf } from '../../errors.ts';
import { BUNDLED_HANDLERS } from '../../handlers/registry.ts';
import { encodeJson } from '../../report/encode.ts';
import { formatCounterexample } from '../../report/format-counterexample.ts';
import { formatJunit, type JunitSuite } from '../../report/format-junit.ts';
import { formatSummary, reproducesDeterministically } from '../../report/format-summary.ts';
import { toJsonReport } from '../../report/json-report.ts';
import { runSuite } from '../../report/run-suite.ts';
import { triageLine, triageOf } from '../../report/triage.ts';
import { MODE_CHOICES, type ModeChoice } from '../../types/mode.ts';
import type { CheckOptions, ResolvedOptions } from '../../types/options.ts';
import type { CliContext } from '../cli-context.ts';
import { DEFAULTS, ENV_HELP, helpBlocks, OUT_HELP } from '../command-help.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { addHandlerOptions, type HandlerFlags } from '../handler-options.ts';
import {
  parseInteger,
  parseModeChoice,
  parseNumber,
  parseSeeds,
  parseShard,
} from '../parse-flags.ts';
import { createProgressDisplay } from '../progress-display.ts';
import { timelineLine, writeCaseTimeline } from '../timeline-file.ts';
import { writeTextFile } from '../write-text-file.ts';
import { reportFindings, reportInterruptedFindings } from './run-findings.ts';

interface RunFlags extends HandlerFlags {
  runs?: number;
  seed?: number;
  timeLimit?: number;
  minRuns?: number;
  mode?: ModeChoice;
  stepsMax?: number;
  shard?: { index: number; count: number };
  json?: boolean;
  junit?: string;
  out?: string;
  html?: string;
  verbose?: boolean;
  allFindings?: boolean;
  knownFindings?: string;
  writeKnownFindings?: string;
  seeds?: number[];
}

/** Registers `run`. */
export function registerRun(program: Command, ctx: CliContext): void {
  addHandlerOptions(
    program
      .command('run')
      .description('check a handler against the contract with generated sequences'),
  )
    .option('--runs <n>', `generated sequences to run (default: ${DEFAULTS.runs})`, parseInteger)
    .option(
      '--seed <s>',
      `fast-check seed (default: $RECEIPTCHECK_SEED, else ${DEFAULTS.seed})`,
      parseInteger,
    )
    .option(
      '--time-limit <seconds>',
      'stop generating after this long and report what ran (default: none)',
      parseNumber,
    )
    .option(
      '--min-runs <n>',
      'with --time-limit: fewer runs than this is incomplete (exit 2), never a pass (default: 0)',
      parseInteger,
    )
    .option(
      '--mode <mode>',
      `${MODE_CHOICES.join('|')}; auto runs sequential, then scheduled mode (a service: sequential, then concurrent) (default: ${DEFAULTS.mode})`,
      parseModeChoice,
    )
    .option(
      '--steps-max <n>',
      `most steps per generated sequence (default: ${DEFAULTS.stepsMax})`,
      parseInteger,
    )
    .option(
      '--shard <i/n>',
      'run only shard i of n; every machine with the same seed splits the same way',
      parseShard,
    )
    .option(
      '--all-findings',
      'go on after a counterexample: shrink every failing run and report each distinct finding (rule broken, shape of the case) once, with its count and a case file',
    )
    .option(
      '--known-findings <file>',
      'with --all-findings (implied): findings listed in this JSON file are reported as known and do not fail the run; exit 1 only on a new one',
    )
    .option(
      '--write-known-findings <file>',
      "with --all-findings: write this run's findings as a known-findings file, to review and commit",
    )
    .option(
      '--seeds <a..b|list>',
      'with --all-findings (implied): search each seed in turn, each with --runs runs, e.g. 1..10 or 1,4,9',
      parseSeeds,
    )
    .option('--json', 'print exactly one JSON object on stdout (the summary goes to stderr)')
    .option('--junit <file>', 'also write JUnit XML to this file')
    .option('--out <dir>', `where a counterexample file is written (default: ./${DEFAULT_OUT_DIR})`)
    .option(
      '--html <dir>',
      "where the counterexample's HTML timeline is written (default: beside the counterexample file)",
    )
    .option(
      '--verbose',
      "print stacks (of an error that stops the run, and of a handler's unexpected exceptions in a counterexample) and a scheduled counterexample's statements in full",
    )
    .addHelpText(
      'after',
      helpBlocks(
        `Examples:
  receiptcheck run                                  the bundled reference handler, seed 42
  receiptcheck run --handler ./my-handler.ts --runs 1000 --junit reports/receiptcheck.xml
  RECEIPTCHECK_SEED=7 receiptcheck run --shard 2/4  the second quarter of the runs, seed 7
  receiptcheck run --handler version-before-receipt --out /tmp/cx   a bundled mutant
  receiptcheck run --operation adjust-balance       the adjust-balance reference handler
  receiptcheck run --handler powertools --mode scheduled --all-findings --seeds 1..10
                                                    every distinct finding of seeds 1 to 10
  receiptcheck run --handler ./my-handler.ts --known-findings known-findings.json
                                                    exit 1 only on a finding not in the file
  receiptcheck run --handler pg-reference --mode concurrent
                                                    the PostgreSQL reference, on an embedded server
  receiptcheck run --service examples/python-http/service.json
                                                    a running service: Python over HTTP (docs/services.md)
  receiptcheck run --service examples/pg-service/service.json
                                                    a running service on PostgreSQL: Node over HTTP

Bundled handlers: ${bundledNames()}.

A call that does not return within --call-timeout-ms is a counterexample (a hang), in every
mode: a synchronous loop on this thread is stopped by a watchdog, a promise that never settles
is abandoned, a worker thread is terminated. Ctrl-C or SIGTERM stops a run within a second
(exit 130 or 143), once a call in progress returns or reaches that limit.`,
        ENV_HELP,
        OUT_HELP,
      ),
    )
    .action(async (flags: RunFlags, command: Command) => {
      // `--verbose` is also the program's own flag, which commander gives the program wherever it stands.
      const verbose = Boolean(flags.verbose || command.optsWithGlobals().verbose);
      ctx.exitCode = await run({ ...flags, verbose }, ctx);
    });
}

async function run(flags: RunFlags, ctx: CliContext): Promise<ExitCode> {
  const options: CheckOptions = {
    ...(flags.handler !== undefined ? { handler: flags.handler } : {}),
    ...(flags.operation !== undefined ? { operation: flags.operation } : {}),
    ...(flags.runs !== undefined ? { runs: flags.runs } : {}),
    ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    ...(flags.timeLimit !== undefined ? { timeLimitSeconds: flags.timeLimit } : {}),
    ...(flags.minRuns !== undefined ? { minRuns: flags.minRuns } : {}),
    ...(flags.mode !== undefined ? { mode: flags.mode } : {}),
    ...(flags.workers !== undefined ? { workers: flags.workers } : {}),
    ...(flags.lanes !== undefined ? { lanes: flags.lanes } : {}),
    ...(flags.stepsMax !== undefined ? { stepsMax: flags.stepsMax } : {}),
    ...(flags.callTimeoutMs !== undefined ? { callTimeoutMs: flags.callTimeoutMs } : {}),
    ...(flags.databaseUrl !== undefined ? { databaseUrl: flags.databaseUrl } : {}),
    ...(flags.shard !== undefined ? { shard: flags.shard } : {}),
    ...(flags.allFindings || flags.writeKnownFindings !== undefined ? { allFindings: true } : {}),
    ...(flags.knownFindings !== undefined ? { knownFindings: flags.knownFindings } : {}),
    ...(flags.seeds !== undefined ? { seeds: flags.seeds } : {}),
  };
  // Validate before anything starts, and learn the seed before sharding for the summary.
  const resolved = resolveOptions(options);
  const progress = createProgressDisplay(ctx.io.progressStream);
  let result: Awaited<ReturnType<typeof checkHandler>>;
  try {
    result = await checkHandler({ ...options, onProgress: progress.onProgress });
  } catch (thrown) {
    // CI reads the JUnit file: a check that could not finish says why there, not only on stderr.
    if (flags.junit)
      writeTextFile(flags.junit, formatJunit(errorSuite(resolved, thrown)), '--junit');
    if (!isInterruptedWithFindings(thrown) || !thrown.partial.findings?.length) throw thrown;
    // Before the findings are printed: `finally` runs only once the report has begun.
    progress.stop();
    return reportInterruptedFindings(thrown, flags, resolved, ctx);
  } finally {
    progress.stop();
  }
  if (result.findings) return reportFindings(result, result.findings, flags, resolved, ctx);
  const cx = result.counterexample;
  // A concurrent counterexample is searched for in scheduled mode as it is saved (see the store).
  const saved = cx ? await saveCounterexample(cx, flags.out ?? DEFAULT_OUT_DIR) : undefined;
  const html =
    cx && saved
      ? writeCaseTimeline(cx, saved.path, flags.html, {
          reproducesDeterministically: reproducesDeterministically(saved.reproduction),
        })
      : undefined;
  const context = {
    baseSeed: resolved.seed,
    ...(html ? { hints: [timelineLine(html)], timelinePath: html } : {}),
    ...(saved ? { savedPath: saved.path } : {}),
    ...(saved?.reproduction
      ? {
          reproduction: saved.reproduction,
          reproducesDeterministically: reproducesDeterministically(saved.reproduction),
        }
      : {}),
    ...(flags.verbose ? { verbose: true } : {}),
    ...(resolved.timeLimitSeconds ? { timeLimitSeconds: resolved.timeLimitSeconds } : {}),
  };
  // CI shows a JUnit attachment from wherever it reads the XML: an absolute path works from there.
  const junitContext = html ? { ...context, timelinePath: resolve(html) } : context;
  if (flags.junit)
    writeTextFile(flags.junit, formatJunit(runSuite(result, junitContext)), '--junit');
  // A failure report ends with what the user can change if they believe the handler is right.
  const triage = cx ? `\n${triageLine(triageOf(cx))}\n` : '';
  const text = `${cx ? `${formatCounterexample(cx, context)}\n\n` : ''}${formatSummary(result, context)}\n${triage}`;
  if (flags.json) {
    ctx.io.stdout(`${encodeJson(toJsonReport(result, context))}\n`);
    ctx.io.stderr(text);
  } else ctx.io.stdout(text);
  return result.verdict === 'passed' ? EXIT.ok : EXIT.failed;
}

/** A JUnit suite with one errored case: the check stopped with an error before a verdict. */
function errorSuite(o: ResolvedOptions, thrown: unknown): JunitSuite {
  const code = isReceiptcheckError(thrown) ? thrown.code : 'E_INTERNAL';
  const message = `${code}: ${messageOf(thrown)}`;
  return {
    name: 'receiptcheck',
    properties: { handler: o.handler, mode: o.modes.join('+'), seed: o.seed },
    cases: [
      {
        name: `${o.handler} holds the retry-receipt contract (${o.modes.join(' + ')})`,
        classname: 'receiptcheck.run',
        timeMs: 0,
        error: { message, text: thrown instanceof Error ? (thrown.stack ?? message) : message },
      },
    ],
  };
}

/** `reference, 15 mutants (see "receiptcheck mutants --list"), libraries: …`, from the registry. */
function bundledNames(): string {
  const of = (kind: string) => BUNDLED_HANDLERS.filter((h) => h.kind === kind).map((h) => h.name);
  const libraries = of('library');
  return [
    ...of('reference'),
    `${of('mutant').length} mutants (see "receiptcheck mutants --list")`,
    ...(libraries.length > 0 ? [`wrapped libraries ${libraries.join(', ')}`] : []),
  ].join(', ');
}
