/**
 * `receiptcheck report FILE`: draws any saved case as an HTML timeline, a scenario, a
 * counterexample written by `run`, or the history a failed soak wrote, without running anything.
 */
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { caseOperation } from '../../api/case-operation.ts';
import { readTimeline } from '../../api/load-timeline.ts';
import type { CliContext } from '../cli-context.ts';
import { helpBlocks } from '../command-help.ts';
import { EXIT } from '../exit-codes.ts';
import { htmlPathFor, timelineLine, writeTimelineHtml } from '../timeline-file.ts';

/** Registers `report`. */
export function registerReport(program: Command, ctx: CliContext): void {
  program
    .command('report')
    .description('draw a saved case (scenario, counterexample or soak history) as an HTML timeline')
    .argument('<file>', 'a case file, a counterexample written by "run", or a soak history')
    .option('--out <file>', 'where the page is written (default: beside FILE, as NAME.html)')
    .option(
      '--handler <path>',
      "for a case of your own operation: the plugin that declares it, when it is not where the file's handler says",
    )
    .addHelpText(
      'after',
      helpBlocks(`The page is one self-contained HTML file (no network): a lane per connection
or client on a shared time axis, each call a bar from send to answer, the statements of a
scheduled run inside their calls, the order the checker built and the calls it could not place
with the rule each breaks, the database at the end and the commands that reproduce the case.
A scenario, which records no run, shows its steps and what it expects. A case of your own
operation loads the plugin it names (its relative path from the working directory) for the
operation's words; --handler names the plugin when the file's path no longer leads to it.

Examples:
  receiptcheck report counterexamples/check-then-act-scheduled-seed42.json
  receiptcheck report scenarios/article/02-lost-response-replays.json --out /tmp/lost.html
  receiptcheck report counterexamples/soak-check-then-act-seed42.json`),
    )
    .action(async (file: string, flags: { out?: string; handler?: string }) => {
      const read = readTimeline(file);
      // A case of a user's own operation is drawn in its words: its plugin declares them.
      const spec = await caseOperation(read.saved, flags.handler ? { handler: flags.handler } : {});
      const timeline = read.draw(spec);
      const path = writeTimelineHtml(
        flags.out ?? htmlPathFor(dirname(file), file),
        timeline,
        '--out',
      );
      ctx.io.stdout(`${timelineLine(path)}\n${timeline.triage ? `${timeline.triage}\n` : ''}`);
      ctx.exitCode = EXIT.ok;
    });
}
