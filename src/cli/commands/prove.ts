/**
 * `receiptcheck prove`: every schedule of each case within a preemption bound, reduced, instead
 * of schedules drawn at random. Held: the summary says for exactly what. Failed: the schedule
 * with the fewest preemptions, shown as any counterexample and saved as a scheduled case file
 * that `receiptcheck replay` runs exactly.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_OUT_DIR } from '../../api/counterexample-store.ts';
import { listCaseFiles, loadCaseFile } from '../../api/load-case-file.ts';
import { prove } from '../../api/prove.ts';
import { messageOf, ReceiptcheckError } from '../../errors.ts';
import { formatCaseFile } from '../../report/case-file.ts';
import { encodeJson } from '../../report/encode.ts';
import { formatCounterexample } from '../../report/format-counterexample.ts';
import { formatProveSummary } from '../../report/format-prove.ts';
import type { ProveResult } from '../../types/prove.ts';
import type { CliContext } from '../cli-context.ts';
import { helpBlocks } from '../command-help.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { addHandlerOptions, type HandlerFlags } from '../handler-options.ts';
import { parseInteger } from '../parse-flags.ts';

interface ProveFlags extends HandlerFlags {
  preemptions?: number;
  reduction?: boolean;
  injections?: boolean;
  maxSteps?: number;
  maxLanes?: number;
  cases?: number;
  seed?: number;
  case?: string;
  scenarios?: string;
  schedules?: number;
  out?: string;
  json?: boolean;
  verbose?: boolean;
}

/** Registers `prove`. */
export function registerProve(program: Command, ctx: CliContext): void {
  addHandlerOptions(
    program
      .command('prove')
      .description(
        'run every schedule of each case within a preemption bound, not a random sample of them',
      ),
  )
    .option(
      '--preemptions <k>',
      'most switches away from a lane that could go on, per schedule (default: 2)',
      parseInteger,
    )
    .option(
      '--no-reduction',
      'run every schedule within the bound, also those equivalent to one already run',
    )
    .option(
      '--injections',
      'also inject every single crash and store fault at every point of each concurrent group, under every schedule',
    )
    .option('--max-steps <n>', 'generated cases: most steps each (default: 3)', parseInteger)
    .option(
      '--max-lanes <n>',
      'generated cases: most lanes in a concurrent group (default: 3)',
      parseInteger,
    )
    .option('--cases <n>', 'generated cases: how many (default: 20)', parseInteger)
    .option(
      '--seed <s>',
      'generated cases: the seed they are drawn from (default: 42)',
      parseInteger,
    )
    .option('--case <file>', 'prove this case file instead of generated cases')
    .option('--scenarios <dir>', 'prove every case file under this folder instead')
    .option(
      '--schedules <n>',
      'most schedules per case; a case that needs more leaves the verdict incomplete (default: 20000)',
      parseInteger,
    )
    .option('--out <dir>', `where a counterexample file is written (default: ./${DEFAULT_OUT_DIR})`)
    .option('--json', 'print exactly one JSON object on stdout (the summary goes to stderr)')
    .addHelpText(
      'after',
      helpBlocks(`Examples:
  receiptcheck prove                                the reference, 20 generated cases, ≤ 2 preemptions
  receiptcheck prove --handler check-then-act       a race mutant: its counterexample and preemptions
  receiptcheck prove --case counterexamples/x.json --preemptions 3
  receiptcheck prove --scenarios scenarios/article  every article scenario, every schedule

The verdict says what was proved: every schedule with at most --preemptions preemptions of the
cases named, up to the reduction's assumption that reads of different lanes commute (docs/prove.md).
A schedule past the bound, or a case not named, is not covered; crashes and store faults only
with --injections.`),
    )
    .action(async (flags: ProveFlags) => {
      ctx.exitCode = await runProve(flags, ctx);
    });
}

async function runProve(flags: ProveFlags, ctx: CliContext): Promise<ExitCode> {
  if (flags.case !== undefined && flags.scenarios !== undefined)
    throw new ReceiptcheckError('E_USAGE', 'give --case or --scenarios, not both');
  const files =
    flags.case !== undefined
      ? [flags.case]
      : flags.scenarios !== undefined
        ? listCaseFiles(flags.scenarios)
        : undefined;
  const result = await prove({
    ...(flags.handler !== undefined ? { handler: flags.handler } : {}),
    ...(flags.operation !== undefined ? { operation: flags.operation } : {}),
    ...(flags.workers !== undefined ? { workers: flags.workers } : {}),
    ...(flags.lanes !== undefined ? { lanes: flags.lanes } : {}),
    ...(flags.callTimeoutMs !== undefined ? { callTimeoutMs: flags.callTimeoutMs } : {}),
    ...(flags.databaseUrl !== undefined ? { databaseUrl: flags.databaseUrl } : {}),
    ...(flags.preemptions !== undefined ? { preemptions: flags.preemptions } : {}),
    ...(flags.reduction === false ? { reduce: false } : {}),
    ...(flags.injections ? { injections: true } : {}),
    ...(flags.maxSteps !== undefined ? { stepsMax: flags.maxSteps } : {}),
    ...(flags.maxLanes !== undefined ? { lanesMax: flags.maxLanes } : {}),
    ...(flags.cases !== undefined ? { cases: flags.cases } : {}),
    ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    ...(flags.schedules !== undefined ? { schedulesMax: flags.schedules } : {}),
    ...(files ? { caseFiles: files.map((f) => loadCaseFile(f)) } : {}),
  });
  const savedPath = result.failure ? saveFailure(result, flags.out ?? DEFAULT_OUT_DIR) : undefined;
  const summary = formatProveSummary(result, savedPath ? { savedPath } : {});
  const text = `${result.failure ? `${counterexampleText(result, savedPath)}\n\n` : ''}${summary}\n`;
  if (flags.json) {
    const { failure, ...counts } = result;
    const json = {
      ...counts,
      ...(failure
        ? {
            failure: {
              preemptions: failure.preemptions,
              failures: failure.failures,
              schedule: failure.detail.schedule,
              traceHash: failure.detail.traceHash,
              ...(savedPath ? { saved: savedPath } : {}),
            },
          }
        : {}),
    };
    ctx.io.stdout(`${encodeJson(json)}\n`);
    ctx.io.stderr(text);
  } else ctx.io.stdout(text);
  if (result.verdict === 'failed') return EXIT.failed;
  // A case cut short by the schedule limit, or runs whose path the server chose, proved nothing
  // for them: incomplete, as a run with too few runs.
  return result.verdict === 'held' ? EXIT.ok : EXIT.usage;
}

/** The failing case as any counterexample, with its preemptions and how to replay it. */
function counterexampleText(r: ProveResult, savedPath: string | undefined): string {
  const f = r.failure;
  if (!f) return '';
  const c = f.caseFile;
  const body = formatCounterexample(
    {
      handler: c.handler,
      handlerName: r.handler,
      mode: 'scheduled',
      fixture: c.fixture,
      spec: f.spec,
      steps: c.steps,
      failures: f.failures,
      detail: f.detail,
    },
    savedPath ? { savedPath } : {},
  );
  const p = f.preemptions;
  return `${body}\n\nThis schedule has ${p} preemption${p === 1 ? '' : 's'}, the fewest of any failing one within the bound.`;
}

/**
 * The file a failing proof is saved in: the handler's name or path as one word, without its
 * extension and without dashes at either end (`./plugin-deferred.ts` is
 * `plugin-deferred-prove.json`; a leading dash read as an option in a shell command).
 */
export function proveFileName(handler: string): string {
  const word = handler
    .replace(/\.[cm]?[jt]sx?$/, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${word || 'handler'}-prove.json`;
}

/** Writes the failing case under `dir`; its path, relative to the working directory when below it. */
function saveFailure(r: ProveResult, dir: string): string {
  const f = r.failure;
  if (!f) throw new Error('no failure to save');
  const folder = resolve(dir);
  const file = join(folder, proveFileName(r.handler));
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(file, formatCaseFile(f.caseFile));
  } catch (thrown) {
    throw new ReceiptcheckError(
      'E_BAD_OPTION',
      `cannot write the counterexample to ${folder}: ${messageOf(thrown)}; pass a writable folder with --out`,
      { cause: thrown },
    );
  }
  const rel = relative(process.cwd(), file);
  return rel.startsWith('..') ? file : rel;
}
