/**
 * `receiptcheck scenarios`: runs every case file under a folder (default `scenarios/`) against
 * a handler. A file that names its own handler (a saved counterexample) runs against it unless
 * `--handler` overrides. Exit 1 if any case fails, 2 if a file cannot be read.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import type { Command } from 'commander';
import { listCaseFiles, loadCaseFile } from '../../api/load-case-file.ts';
import { ARTICLE_SCENARIOS_DIR } from '../../api/mutant-kills.ts';
import { handlerOperation } from '../../api/prepare-run.ts';
import { runCase } from '../../api/run-case.ts';
import { ReceiptcheckError } from '../../errors.ts';
import { DEFAULT_OPERATION } from '../../model/operations/index.ts';
import { encodeJson } from '../../report/encode.ts';
import { caseVerdictLine, formatCaseResult } from '../../report/format-case-result.ts';
import { formatJunit, type JunitCase } from '../../report/format-junit.ts';
import type { CliContext } from '../cli-context.ts';
import { helpBlocks } from '../command-help.ts';
import { EXIT } from '../exit-codes.ts';
import { writeTextFile } from '../write-text-file.ts';

interface ScenariosFlags {
  handler?: string;
  dir: string;
  json?: boolean;
  junit?: string;
  verbose?: boolean;
}

/** Registers `scenarios`. */
export function registerScenarios(program: Command, ctx: CliContext): void {
  program
    .command('scenarios')
    .description('run every case file under scenarios/ against a handler')
    .option(
      '--handler <path|name>',
      'run every file against this handler (default: the one each file names, else reference)',
    )
    .option('--dir <dir>', 'the folder searched recursively for *.json case files', 'scenarios')
    .option('--json', 'print exactly one JSON object on stdout')
    .option('--junit <file>', 'also write JUnit XML (one testcase per file) to this file')
    .option('--verbose', "print stacks with errors, and a scheduled run's statements in full")
    .addHelpText(
      'after',
      helpBlocks(`Examples:
  receiptcheck scenarios                          ./scenarios: your regression cases
  receiptcheck scenarios --handler ./my-handler.ts
  receiptcheck scenarios --dir scenarios/article --handler version-before-receipt`),
    )
    .action(async (flags: ScenariosFlags, command: Command) => {
      // `--verbose` is also the program's own flag, which commander gives the program wherever it stands.
      const verbose = Boolean(flags.verbose || command.optsWithGlobals().verbose);
      if (!existsSync(flags.dir))
        throw new ReceiptcheckError(
          'E_BAD_SCENARIO',
          `no folder ${flags.dir}; pass one with --dir (${shippedScenarios()})`,
        );
      const files = listCaseFiles(flags.dir);
      if (files.length === 0)
        throw new ReceiptcheckError('E_BAD_SCENARIO', `no *.json case files under ${flags.dir}`);
      const cases: JunitCase[] = [];
      const report: object[] = [];
      let failed = 0;
      let skipped = 0;
      // A handler given by flag checks one operation; other operations' cases are skipped.
      const only = flags.handler ? await handlerOperation(flags.handler) : undefined;
      for (const file of files) {
        const started = performance.now();
        const c = loadCaseFile(file);
        // By name alone: a user's own operation is known once its plugin is loaded, by runCase.
        const operation = c.fixture.operation ?? DEFAULT_OPERATION.name;
        if (only !== undefined && operation !== only) {
          skipped++;
          if (!flags.json) ctx.io.stdout(`- ${c.name}: skipped (a ${operation} case)\n`);
          continue;
        }
        // A file or handler that cannot load throws a coded error: exit 2 for the whole command.
        const result = await runCase(c, flags.handler ? { handler: flags.handler } : {});
        const text = formatCaseResult(c, result, undefined, verbose);
        if (result.verdict === 'failed') failed++;
        if (!flags.json)
          ctx.io.stdout(
            `${result.verdict === 'failed' ? `${text}\n\n` : `${caseVerdictLine(c, result)}\n`}`,
          );
        report.push({
          file,
          name: c.name,
          verdict: result.verdict,
          handler: result.handler,
          failures: result.failures,
          expectationFailures: result.expectationFailures,
        });
        cases.push({
          name: c.name,
          classname: `receiptcheck.scenarios.${result.handler}`,
          timeMs: performance.now() - started,
          ...(result.verdict === 'failed'
            ? { failure: { message: caseVerdictLine(c, result), text } }
            : {}),
        });
      }
      const verdict = failed === 0 ? 'passed' : 'failed';
      if (flags.junit)
        writeTextFile(
          flags.junit,
          formatJunit({ name: 'receiptcheck scenarios', cases }),
          '--junit',
        );
      if (flags.json)
        ctx.io.stdout(
          `${encodeJson({ verdict, total: files.length - skipped, failed, skipped, cases: report })}\n`,
        );
      else {
        const ran = files.length - skipped;
        const also = skipped > 0 ? ` (${skipped} of other operations skipped)` : '';
        ctx.io.stdout(`\n${ran - failed} of ${ran} case files passed${also}\n`);
      }
      ctx.exitCode = failed === 0 ? EXIT.ok : EXIT.failed;
    });
}

/** Where the scenarios shipped with receiptcheck are (relative to the working directory), by folder. */
function shippedScenarios(): string {
  const dir = dirname(ARTICLE_SCENARIOS_DIR);
  const rel = relative(process.cwd(), dir);
  const folders = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
  return `receiptcheck's own are in ${rel && !rel.startsWith('..') ? rel : dir}: ${folders.map((e) => e.name).join(', ')}`;
}
