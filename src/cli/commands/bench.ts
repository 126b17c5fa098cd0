/**
 * `receiptcheck bench`: how fast the harness explores against the handler's own ceiling, how
 * soon it kills each catalogued mutant, how fast the checker is (on the bench's history and a
 * soak-sized one), and peak memory, in one run.
 * Prints a table, or with `--json` one object. Targets are reported, never enforced: exit 0.
 */
import type { Command } from 'commander';
import type { BenchOptions } from '../../bench/bench-options.ts';
import { formatBench } from '../../bench/format-bench.ts';
import { runBench } from '../../bench/run-bench.ts';
import { ReceiptcheckError } from '../../errors.ts';
import { CATALOGUES, catalogueOf } from '../../handlers/registry.ts';
import { encodeJson } from '../../report/encode.ts';
import type { CliContext } from '../cli-context.ts';
import { DEFAULTS, helpBlocks } from '../command-help.ts';
import { EXIT } from '../exit-codes.ts';
import { parseInteger, parseNumber } from '../parse-flags.ts';

interface BenchFlags {
  handler?: string;
  operation?: string;
  json?: boolean;
  quick?: boolean;
  rounds?: number;
  runs?: number;
  workers?: number;
  seed?: number;
  warmUp?: number;
  warmUpSteps?: number;
  killSeeds?: number;
  mutants?: string;
  proveCases?: number;
  history?: number;
  checkerRuns?: number;
  soak?: number;
  verbose?: boolean;
}

/** Registers `bench`. */
export function registerBench(program: Command, ctx: CliContext): void {
  program
    .command('bench')
    .description(
      'measure the harness against the handler’s own speed, time to kill, checker, memory',
    )
    .option(
      '--handler <path|name>',
      `handler measured for throughput (default: ${DEFAULTS.handler})`,
    )
    .option(
      '--operation <name>',
      'the operation measured: its reference and its mutant catalogue (default: set-interval)',
    )
    .option('--json', 'print exactly one JSON object on stdout (the table goes to stderr)')
    .option(
      '--quick',
      'the under-a-minute preset: 3 rounds x 100 runs, 3 kill seeds, checker timed once, a 100,000-call soak check (not judged)',
    )
    .option('--rounds <n>', 'interleaved throughput rounds (default: 5, quick 3)', parseInteger)
    .option('--runs <n>', 'sequences per mode per round (default: 300, quick 100)', parseInteger)
    .option(
      '--workers <n>',
      `worker threads for concurrent and scheduled modes (default: ${DEFAULTS.workers})`,
      parseInteger,
    )
    .option('--seed <s>', 'first seed; round r uses seed + r (default: 42)', parseInteger)
    .option(
      '--warm-up <seconds>',
      'least CPU seconds each path runs untimed before the timed rounds; it runs on until its speed stops rising, within 60 checks and 10 CPU-s (0: exactly one check; default: 1)',
      parseNumber,
    )
    .option(
      '--warm-up-steps <n>',
      'least steps each path runs untimed before the timed rounds, since V8 optimizes code by how often it ran (default: 50000, quick 20000; PostgreSQL 10000, quick 2000)',
      parseInteger,
    )
    .option(
      '--kill-seeds <n>',
      'seeds per mutant for time to kill, 1..n (default: 5, quick 3)',
      parseInteger,
    )
    .option('--mutants <names>', 'comma-separated catalogue names, or "none" (default: all)')
    .option(
      '--prove-cases <n>',
      'generated cases prove searches and random sampling then samples for as long; 0 skips prove (default: 10, quick 3; PostgreSQL 1, quick 0)',
      parseInteger,
    )
    .option(
      '--history <calls>',
      'calls in the checker’s synthetic history (default: 100000)',
      parseInteger,
    )
    .option('--checker-runs <n>', 'times the checker is timed (default: 3, quick 1)', parseInteger)
    .option(
      '--soak <calls>',
      'calls in the soak-sized history, 16 clients (default: 1000000, quick 100000)',
      parseInteger,
    )
    .option('--verbose', 'print stacks with errors')
    .addHelpText(
      'after',
      helpBlocks(`What it measures, in one process so that ratios hold on a noisy machine:
  raw          the handler's own calls and world events in a tight loop on one warm
               connection (openConnection's settings), the database reset between sequences
               outside the timed part: the ceiling; also on an in-memory copy
  sequential   checkHandler end to end (generation, execution, model, checks, fresh
  concurrent   databases), steps per second and as a ratio to raw; raw and the modes
  scheduled    alternate in rounds, the order reversed every other round; scheduled mode
               twice: at its default (inline lanes for a replayable handler such as the
               reference) and forced onto worker-thread lanes, as every handler not declared
               replayable runs; before the timed rounds, an untimed warm-up runs every
               path (raw too) until its speed stops rising (at least 50,000 steps,
               --warm-up-steps, and a CPU second, --warm-up), on seeds no timed round
               uses, so that none is timed cold:
               steady state, not V8's warm-up, the worker pool's start or the first
               statements' compilation; each warm-up check's speed is printed too
  time to kill for each catalogued mutant, in the mode the catalogue names, at default
               settings: runs and seconds until the first failure, and the shrunk length,
               median over seeds 1..n (a survival counts as infinite)
  prove        for each race mutant of every operation, prove's time to kill at its default
               bound beside random scheduled mode's; then prove over generated cases of the
               handler, and random sampling on the same cases for the same time: how many of
               prove's distinct schedules sampling reached, and how many past the bound
  checker      seconds to check a synthetic linearizable history from 8 clients
  soak check   seconds and peak memory to check a 1,000,000-call history from 16 clients
               with fresh request ids (a soak's shape), generated and checked in a child
               process whose maxRSS is its own; quick uses 100,000 calls and does not judge it
  memory       the process's maxRSS (worker threads included, the soak check's child not)
               and peak heap

A PostgreSQL plugin (--handler pg-reference, or your own) is measured by the same method on an
embedded server (or the one RECEIPTCHECK_DATABASE_URL names): raw on one connection to
a database made from the template, reset between sequences outside the timed part, against the
three modes (no thread-lane row: its scheduled mode has one kind of lane); smaller presets
(5 rounds x 100 runs, quick 2 x 20); no in-memory raw path; time to kill for the PostgreSQL
mutants of every operation; and how many runs' resets fell back to a copy of the template.

The performance budget (the speed and memory targets in docs/performance.md) is printed, each
target with a ✓ or ✗; the command exits 0 either way.

Examples:
  receiptcheck bench --quick                  under a minute
  receiptcheck bench --json > bench.json      the full bench, under five minutes
  receiptcheck bench --handler ./my-handler.ts --mutants none
  receiptcheck bench --handler pg-reference --quick   PostgreSQL, well under two minutes`),
    )
    .action(async (flags: BenchFlags) => {
      const report = await runBench({ ...benchOptions(flags), onProgress: progress(ctx) });
      ctx.io.progressStream?.write('\r\x1b[K');
      const table = `${formatBench(report)}\n`;
      if (flags.json) {
        ctx.io.stdout(`${encodeJson(report)}\n`);
        ctx.io.stderr(table);
      } else ctx.io.stdout(table);
      ctx.exitCode = EXIT.ok;
    });
}

function benchOptions(flags: BenchFlags): BenchOptions {
  return {
    ...(flags.handler !== undefined ? { handler: flags.handler } : {}),
    ...(flags.operation !== undefined ? { operation: flags.operation } : {}),
    ...(flags.quick ? { quick: true } : {}),
    ...(flags.rounds !== undefined ? { rounds: flags.rounds } : {}),
    ...(flags.runs !== undefined ? { runsPerRound: flags.runs } : {}),
    ...(flags.workers !== undefined ? { workers: flags.workers } : {}),
    ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    ...(flags.warmUp !== undefined ? { warmUpSeconds: flags.warmUp } : {}),
    ...(flags.warmUpSteps !== undefined ? { warmUpSteps: flags.warmUpSteps } : {}),
    ...(flags.killSeeds !== undefined ? { killSeeds: flags.killSeeds } : {}),
    ...(flags.mutants !== undefined
      ? { mutants: mutantNames(flags.mutants, flags.operation) }
      : {}),
    ...(flags.proveCases !== undefined ? { proveCases: flags.proveCases } : {}),
    ...(flags.history !== undefined ? { historyEntries: flags.history } : {}),
    ...(flags.checkerRuns !== undefined ? { checkerRuns: flags.checkerRuns } : {}),
    ...(flags.soak !== undefined ? { soakEntries: flags.soak } : {}),
  };
}

/** `none` or a comma-separated list of catalogue names; an unknown name is a usage error. */
function mutantNames(list: string, operation?: string): string[] {
  if (list.trim() === 'none') return [];
  const names = list
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  // The measured operation's SQLite mutants, or (for a PostgreSQL handler) any operation's.
  const known = new Set([
    ...catalogueOf(operation).map((m) => m.name),
    ...CATALOGUES.flatMap((c) => catalogueOf(c.operation, 'postgres')).map((m) => m.name),
  ]);
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0)
    throw new ReceiptcheckError(
      'E_BAD_OPTION',
      `--mutants: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not in the catalogue; run \`receiptcheck mutants --list\` for the names, or pass "none"`,
    );
  return names;
}

function progress(ctx: CliContext): (line: string) => void {
  return (line) => ctx.io.progressStream?.write(`\r\x1b[K${line}…`);
}
