/**
 * `receiptcheck replay FILE`: re-runs a saved counterexample (or any case file) and says what the
 * replay saw: reproduced (exit 1), held (exit 0, only where the replay is exact), or not
 * reproduced (exit 3: a case found on real threads that the bounded schedule search and a run on
 * real threads did not show failing, or a scheduled PostgreSQL case whose runs the server ordered
 * that passed every run of its schedule; neither is a fix).
 */

import type { Command } from 'commander';
import { loadCaseFile } from '../../api/load-case-file.ts';
import { replayCase } from '../../api/replay-case.ts';
import { ReceiptcheckError } from '../../errors.ts';
import { encodeJson } from '../../report/encode.ts';
import { explainFailure } from '../../report/explain-failure.ts';
import { caseResultReadable } from '../../report/format-case-result.ts';
import { formatReplay, replayVerdictText } from '../../report/format-replay.ts';
import { replayTimelineCase } from '../../report/timeline/case-timeline.ts';
import { triageOf } from '../../report/triage.ts';
import type { Mode } from '../../types/mode.ts';
import {
  DEFAULT_SCHEDULES_MAX,
  type ReplayVerdict,
  SERVER_ORDERED_RUNS,
} from '../../types/replay.ts';
import type { CliContext } from '../cli-context.ts';
import { DATABASE_URL_HELP, helpBlocks, MODES_TEXT } from '../command-help.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { addServiceOption } from '../handler-options.ts';
import { parseInteger, parseMode } from '../parse-flags.ts';
import { timelineLine, writeCaseTimeline } from '../timeline-file.ts';

interface ReplayFlags {
  handler?: string;
  mode?: Mode;
  databaseUrl?: string;
  schedules?: number;
  json?: boolean;
  html?: string;
  verbose?: boolean;
}

/** Each verdict's exit code. */
const EXIT_OF: Readonly<Record<ReplayVerdict, ExitCode>> = {
  reproduced: EXIT.failed,
  held: EXIT.ok,
  notReproduced: EXIT.notReproduced,
};

/** Registers `replay`. */
export function registerReplay(program: Command, ctx: CliContext): void {
  addServiceOption(
    program
      .command('replay')
      .description(
        're-run a saved counterexample file: reproduced, held, or not reproduced in N schedules',
      )
      .argument(
        '<file>',
        'a case file: a counterexample written by "run" (see --out), or a scenario',
      )
      .option(
        '--handler <path|name>',
        'run against this handler instead of the one the file names',
      ),
    'run against this service description instead of the handler the file names',
  )

    .option('--mode <mode>', `${MODES_TEXT} (default: the mode the file names)`, parseMode)
    .option(
      '--schedules <n>',
      `most schedules searched in scheduled mode for a case found on real threads (default: ${DEFAULT_SCHEDULES_MAX})`,
      parseInteger,
    )
    .option('--database-url <url>', DATABASE_URL_HELP)
    .option('--json', 'print exactly one JSON object on stdout')
    .option('--html <dir>', "also write the replayed run's HTML timeline into this folder")
    .option('--verbose', "print stacks with errors, and a scheduled run's statements in full")
    .addHelpText(
      'after',
      helpBlocks(`Verdicts and exit codes for replay:
  reproduced      exit 1  the case failed again
  held            exit 0  the case passed where the replay is exact (sequential mode; scheduled
                          mode with the case's schedule, unless PostgreSQL ordered the run; any
                          case without a concurrent group): it is fixed
  not reproduced  exit 3  a case found on real threads (concurrent mode) passed under every
                          schedule searched and on real threads, or a scheduled PostgreSQL
                          case whose run the server ordered passed on every run of its
                          schedule: not proof of a fix

A case found on real threads fails again only when timing allows. Its replay first runs the
scheduled reproduction saved with it (if "run" found one), then searches scheduled mode: the
lane order, one and then two context switches at each decision point of every group of up to
3 lanes, then schedules drawn from a fixed seed, at most --schedules in all; in concurrent
mode (the file's, unless --mode says otherwise) it then runs once on real threads. The same
file always gets the same search.

On PostgreSQL one thing the schedule does not decide: when a lane lets go of a row two or more
other lanes wait on, the server wakes them all and which goes first is a race between their
backends. A scheduled run that met such a wake-up is not exact, so its pass is not "held": the
case's schedule runs again, at most ${SERVER_ORDERED_RUNS} times in all; a failure is "reproduced", a pass
on every run "not reproduced in N runs of its schedule".

Examples:
  receiptcheck replay counterexamples/version-before-receipt-sequential-seed42.json
  receiptcheck replay counterexamples/x.json --handler ./my-fixed-handler.ts
  receiptcheck replay counterexamples/check-then-act-concurrent-seed42.json --schedules 2000

A relative handler path in the file is resolved from the working directory.`),
    )
    .action(async (file: string, flags: ReplayFlags, command: Command) => {
      // `--verbose` is also the program's own flag, which commander gives the program wherever it stands.
      const verbose = Boolean(flags.verbose || command.optsWithGlobals().verbose);
      const c = loadCaseFile(file);
      // A replay's verdict is about one handler: a file that names none would silently check the
      // reference and pass.
      if (c.handlerNamed === false && flags.handler === undefined)
        throw new ReceiptcheckError(
          'E_BAD_COUNTEREXAMPLE',
          `${file} names no handler; add "handler" to the file or pass --handler PATH|NAME (receiptcheck scenarios runs handler-less scenarios against the reference)`,
        );
      const replay = await replayCase(c, {
        ...(flags.handler !== undefined ? { handler: flags.handler } : {}),
        ...(flags.mode !== undefined ? { mode: flags.mode } : {}),
        ...(flags.databaseUrl !== undefined ? { databaseUrl: flags.databaseUrl } : {}),
        ...(flags.schedules !== undefined ? { schedulesMax: flags.schedules } : {}),
      });
      const { result } = replay;
      const html = flags.html
        ? writeCaseTimeline(replayTimelineCase(c, result), file, flags.html)
        : undefined;
      const text = formatReplay(c, replay, verbose, html ? [timelineLine(html)] : []);
      if (flags.json) {
        ctx.io.stdout(
          `${encodeJson({
            verdict: replayVerdictText(replay),
            route: replay.route,
            schedules: replay.schedules,
            schedulesMax: replay.schedulesMax,
            realThreads: replay.realThreads,
            stillFails: replay.verdict === 'reproduced',
            file,
            name: c.name,
            handler: result.handler,
            mode: result.mode,
            steps: c.steps.length,
            failures: result.failures,
            explanations: result.failures.map((f) => explainFailure(f, result.spec)),
            ...(replay.verdict === 'reproduced' && result.failures.length > 0
              ? { triage: triageOf(caseResultReadable(c, result)) }
              : {}),
            expectationFailures: result.expectationFailures,
            ...(replay.schedule ? { schedule: replay.schedule } : {}),
            ...(traceHashOf(result.detail) ? { traceHash: traceHashOf(result.detail) } : {}),
            ...(html ? { timeline: html } : {}),
            text,
          })}\n`,
        );
      } else ctx.io.stdout(text);
      ctx.exitCode = EXIT_OF[replay.verdict];
    });
}

/** A scheduled run's trace hash (equal hashes, equal interleavings); undefined for other modes. */
function traceHashOf(detail: unknown): string | undefined {
  const hash = (detail as { traceHash?: unknown } | undefined)?.traceHash;
  return typeof hash === 'string' ? hash : undefined;
}
