/**
 * `receiptcheck soak`: many clients call the handler back to back on their own threads and
 * connections for a while, then the whole history is checked at once (see `execute/sqlite/concurrent/
 * soak.ts`). It finds races by volume rather than by lining calls up; timing is not seeded, so
 * two soaks differ. Exit 0 when it held, 1 when it failed or the check could not decide in time.
 */

import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_OUT_DIR } from '../../api/counterexample-store.ts';
import { soak } from '../../api/soak.ts';
import { encodeJson } from '../../report/encode.ts';
import { formatSoak } from '../../report/format-soak.ts';
import { buildSoakTimeline, SOAK_HISTORY_FORMAT } from '../../report/timeline/soak-timeline.ts';
import type { SoakOptions } from '../../types/options.ts';
import type { CliContext } from '../cli-context.ts';
import { DEFAULTS, helpBlocks } from '../command-help.ts';
import { EXIT } from '../exit-codes.ts';
import { parseInteger, parseNumber } from '../parse-flags.ts';
import { htmlPathFor, timelineLine, writeTimelineHtml } from '../timeline-file.ts';
import { writeTextFile } from '../write-text-file.ts';

/** A handler name as a file-name part. */
function slug(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]+/g, '-');
}

interface SoakFlags {
  handler?: string;
  operation?: string;
  clients?: number;
  duration: number;
  seed?: number;
  operationsMax?: number;
  worldEvents: boolean;
  callTimeoutMs?: number;
  checkTimeLimit?: number;
  json?: boolean;
  out?: string;
  verbose?: boolean;
}

/** Registers `soak`. */
export function registerSoak(program: Command, ctx: CliContext): void {
  program
    .command('soak')
    .description('many clients back to back for a while, then one check of the whole history')
    .option(
      '--handler <path|name>',
      `a plugin module path, or a bundled name (default: ${DEFAULTS.handler})`,
    )
    .option('--operation <name>', 'the operation to check (see receiptcheck operations)')
    .option(
      '--clients <n>',
      'concurrent clients, each on its own worker and connection (default: 8)',
      parseInteger,
    )
    .option('--duration <seconds>', 'how long the clients keep calling', parseNumber, 2)
    .option('--seed <s>', `the clients' choices (default: ${DEFAULTS.seed})`, parseInteger)
    .option('--operations-max <n>', 'stop issuing after this many operations', parseInteger)
    .option('--no-world-events', 'calls only: no moves, scope changes or receipt-store failures')
    .option(
      '--call-timeout-ms <ms>',
      `per-operation limit; a longer one stops the soak (default: ${DEFAULTS.callTimeoutMs})`,
      parseInteger,
    )
    .option(
      '--check-time-limit <seconds>',
      'time budget of the linearizability check (default: 60)',
      parseNumber,
    )
    .option('--json', 'print exactly one JSON object on stdout (the summary goes to stderr)')
    .option(
      '--out <dir>',
      `where a failing soak writes its whole history as JSON (default: ./${DEFAULT_OUT_DIR})`,
    )
    .option('--verbose', 'print stacks with errors')
    .addHelpText(
      'after',
      helpBlocks(`Examples:
  receiptcheck soak                                     8 clients for 2 s on the reference
  receiptcheck soak --handler check-then-act --duration 5
  receiptcheck soak --handler ./my-handler.ts --clients 16 --no-world-events`),
    )
    .action(async (flags: SoakFlags) => {
      const options: SoakOptions = {
        durationMs: flags.duration * 1000,
        worldEvents: flags.worldEvents,
        ...(flags.handler !== undefined ? { handler: flags.handler } : {}),
        ...(flags.operation !== undefined ? { operation: flags.operation } : {}),
        ...(flags.clients !== undefined ? { clients: flags.clients } : {}),
        ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
        ...(flags.operationsMax !== undefined ? { operationsMax: flags.operationsMax } : {}),
        ...(flags.callTimeoutMs !== undefined ? { callTimeoutMs: flags.callTimeoutMs } : {}),
        ...(flags.checkTimeLimit !== undefined
          ? { checkTimeLimitMs: flags.checkTimeLimit * 1000 }
          : {}),
      };
      ctx.io.progressStream?.write(`soaking for ${flags.duration} s, then checking…\n`);
      // Bad options, a plugin that cannot load or a hung call throw a coded error: exit 2.
      const { history, ...result } = await soak({ ...options, keepHistory: true });
      // The spec is code: the files and JSON name the operation in the fixture, as case files do.
      const { spec: _spec, ...saved } = result;
      let text = formatSoak(result, options.durationMs ?? 0);
      let written: { historyFile: string; timeline: string } | undefined;
      if (result.verdict !== 'passed' && history) {
        const file = join(
          flags.out ?? DEFAULT_OUT_DIR,
          `soak-${slug(result.handlerName)}-seed${result.seed}.json`,
        );
        writeTextFile(
          file,
          `${encodeJson({ format: SOAK_HISTORY_FORMAT, ...saved, history })}\n`,
          '--out',
        );
        text += `\n\nThe whole history (${history.length} operations, by id as in the lines above) is in ${file}`;
        // The page draws only the failing partition; the history file beside it holds the rest.
        const page = writeTimelineHtml(
          htmlPathFor(dirname(file), file),
          buildSoakTimeline({ ...result, history }, file),
          '--out',
        );
        text += `\n${timelineLine(page)}`;
        written = { historyFile: file, timeline: page };
      }
      if (flags.json) {
        ctx.io.stdout(`${encodeJson({ ...saved, ...written })}\n`);
        ctx.io.stderr(`${text}\n`);
      } else ctx.io.stdout(`${text}\n`);
      ctx.exitCode = result.verdict === 'passed' ? EXIT.ok : EXIT.failed;
    });
}
