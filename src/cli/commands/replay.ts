/**
 * `receiptcheck replay FILE`: re-runs a saved counterexample (or any case file) and says whether
 * it still fails. Exit 1 while it fails, 0 once the handler is fixed.
 */

import type { Command } from 'commander';
import { loadCaseFile } from '../../api/load-case-file.ts';
import { runCase } from '../../api/run-case.ts';
import { encodeJson } from '../../report/encode.ts';
import { explainFailure } from '../../report/explain-failure.ts';
import { formatCaseResult } from '../../report/format-case-result.ts';
import type { Mode } from '../../types/mode.ts';
import type { CliContext } from '../cli-context.ts';
import { helpBlocks, MODES_TEXT } from '../command-help.ts';
import { EXIT } from '../exit-codes.ts';
import { parseMode } from '../parse-flags.ts';

interface ReplayFlags {
  handler?: string;
  mode?: Mode;
  json?: boolean;
  verbose?: boolean;
}

/** Registers `replay`. */
export function registerReplay(program: Command, ctx: CliContext): void {
  program
    .command('replay')
    .description('re-run a saved counterexample file and say whether it still fails')
    .argument('<file>', 'a case file: a counterexample written by "run" (see --out), or a scenario')
    .option('--handler <path|name>', 'run against this handler instead of the one the file names')
    .option('--mode <mode>', `${MODES_TEXT} (default: the mode the file names)`, parseMode)
    .option('--json', 'print exactly one JSON object on stdout')
    .option('--verbose', 'print stacks with errors')
    .addHelpText(
      'after',
      helpBlocks(`Exit codes for replay: 1 while the case still fails, 0 once it passes.

Examples:
  receiptcheck replay counterexamples/version-before-receipt-sequential-seed42.json
  receiptcheck replay counterexamples/x.json --handler ./my-fixed-handler.ts

A relative handler path in the file is resolved from the working directory.`),
    )
    .action(async (file: string, flags: ReplayFlags) => {
      const c = loadCaseFile(file);
      const result = await runCase(c, {
        ...(flags.handler !== undefined ? { handler: flags.handler } : {}),
        ...(flags.mode !== undefined ? { mode: flags.mode } : {}),
      });
      const text = `${formatCaseResult(c, result)}\n${result.verdict === 'passed' ? passedNote(c.steps.length, result.mode) : ''}`;
      if (flags.json) {
        ctx.io.stdout(
          `${encodeJson({
            verdict: result.verdict,
            stillFails: result.verdict === 'failed',
            file,
            name: c.name,
            handler: result.handler,
            mode: result.mode,
            steps: c.steps.length,
            failures: result.failures,
            explanations: result.failures.map(explainFailure),
            expectationFailures: result.expectationFailures,
            text,
          })}\n`,
        );
      } else ctx.io.stdout(text);
      ctx.exitCode = result.verdict === 'passed' ? EXIT.ok : EXIT.failed;
    });
}

function passedNote(steps: number, mode: Mode): string {
  const note = `the case no longer fails (${steps} steps replayed)\n`;
  // Real threads race differently each time; only the scheduler replays an interleaving exactly.
  return mode === 'concurrent'
    ? `${note}concurrent mode depends on timing, so one pass does not prove a race fixed: replay it a few times, or check with --mode scheduled\n`
    : note;
}
