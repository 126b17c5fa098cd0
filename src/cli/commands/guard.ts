/**
 * `receiptcheck guard`: the drawn-spec guard run large. It draws operation specs across the
 * spec's space, checks the generic handler built from each (correct by construction) in every
 * mode, and prints one line per spec and a summary: "N specs × M modes × R runs: 0 false
 * verdicts", or each false verdict with its spec, counterexample and saved files. Exit 0 when
 * every check passed, 1 on any false verdict (the harness's bug, not the handler's).
 */
import { createRequire } from 'node:module';
import type { Command } from 'commander';
import { DEFAULT_OUT_DIR } from '../../api/counterexample-store.ts';
import { failedModes, type GuardCase, runGuard } from '../../api/guard/run-guard.ts';
import { ReceiptcheckError } from '../../errors.ts';
import { ENGINES, type Engine } from '../../handlers/engine.ts';
import { describeDrawnPolicy, drawnPluginName } from '../../handlers/generic/drawn-plugin.ts';
import { formatCounterexample } from '../../report/format-counterexample.ts';
import { MODES, type Mode } from '../../types/mode.ts';
import type { CliContext } from '../cli-context.ts';
import { DATABASE_URL_HELP, DEFAULTS, ENV_HELP, helpBlocks } from '../command-help.ts';
import { EXIT } from '../exit-codes.ts';
import { oneOf, parseInteger, parseMode } from '../parse-flags.ts';

interface GuardFlags {
  specs: number;
  runs: number;
  engine: Engine;
  seed?: number;
  mode?: Mode[];
  zod: boolean;
  only?: number;
  out?: string;
  workers?: number;
  databaseUrl?: string;
}

/** Most specs one guard run draws. */
const SPECS_MAX = 10_000;

function parseEngine(value: string): Engine {
  return oneOf(value, ENGINES);
}

function collectMode(value: string, previous: Mode[] | undefined): Mode[] {
  return [...(previous ?? []), parseMode(value)];
}

/** Whether zod can be loaded here (it is an optional peer dependency). */
function zodInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('zod');
    return true;
  } catch {
    return false;
  }
}

/** Registers `guard`. */
export function registerGuard(program: Command, ctx: CliContext): void {
  program
    .command('guard')
    .description(
      "draw operation specs, check a correct handler for each in every mode: the harness's own check",
    )
    .option('--specs <n>', 'operation specs to draw', parseInteger, 20)
    .option('--runs <n>', 'generated sequences per spec and mode', parseInteger, 100)
    .option('--engine <engine>', `the database: ${ENGINES.join('|')}`, parseEngine, 'sqlite')
    .option(
      '--seed <s>',
      `draws the specs and seeds every check (default: ${DEFAULTS.seed})`,
      parseInteger,
    )
    .option(
      '--mode <mode>',
      `a mode to check in, repeatable (default: all, ${MODES.join(', ')})`,
      collectMode,
    )
    .option('--no-zod', 'draw no zod-derived fields (they need zod installed)')
    .option(
      '--only <i>',
      'check only the i-th spec of the draw (1-based), to reproduce it',
      parseInteger,
    )
    .option('--out <dir>', `where a false verdict's files go (default: ./${DEFAULT_OUT_DIR}/guard)`)
    .option('--workers <n>', 'worker threads for concurrent and scheduled modes', parseInteger)
    .option('--database-url <url>', DATABASE_URL_HELP)
    .addHelpText(
      'after',
      helpBlocks(
        `The handler is built from each drawn spec alone (the generic steps every built-in
shares, the spec's own precondition and effect applied to the row it reads), so it is
correct by construction: a red verdict is a false verdict, a bug of receiptcheck. On
SQLite about half the specs also declare a receipt lifetime (policy.receiptExpiry, named
-expiry<ms>) that the handler honours, and the clock moves on between calls. Each is
saved as the spec's plugin module and a case file per failing mode, which replay:
  receiptcheck replay counterexamples/guard/<plugin>-<mode>-seed<S>.json`,
        `Examples:
  receiptcheck guard                                      20 specs × 3 modes × 100 runs, SQLite
  receiptcheck guard --specs 50 --runs 1000               the large run
  receiptcheck guard --engine postgres --specs 10 --runs 200
  receiptcheck guard --seed 7 --only 12 --mode scheduled  one spec of a draw again`,
        ENV_HELP,
      ),
    )
    .action(async (flags: GuardFlags) => {
      if (flags.specs < 1 || flags.specs > SPECS_MAX)
        throw new ReceiptcheckError(
          'E_BAD_OPTION',
          `--specs must be 1–${SPECS_MAX}, got ${flags.specs}`,
        );
      if (flags.only !== undefined && (flags.only < 1 || flags.only > flags.specs))
        throw new ReceiptcheckError(
          'E_BAD_OPTION',
          `--only must be 1–${flags.specs} (--specs), got ${flags.only}`,
        );
      const zod = flags.zod && zodInstalled();
      const modes = flags.mode ? [...new Set(flags.mode)] : [...MODES];
      const seed = flags.seed ?? DEFAULTS.seed;
      const say = (line: string) => ctx.io.stdout(`${line}\n`);
      say(
        `receiptcheck guard: ${flags.specs} specs on ${flags.engine}, seed ${seed}, ${modes.join(' + ')}, ${flags.runs} runs each${zod ? '' : ', no zod fields'}`,
      );
      const started = new Map<number, number>();
      const result = await runGuard({
        specs: flags.specs,
        runs: flags.runs,
        seed,
        engine: flags.engine,
        modes,
        zod,
        out: flags.out ?? `${DEFAULT_OUT_DIR}/guard`,
        ...(flags.only !== undefined ? { only: flags.only } : {}),
        ...(flags.workers !== undefined ? { workers: flags.workers } : {}),
        ...(flags.databaseUrl !== undefined ? { databaseUrl: flags.databaseUrl } : {}),
        onStart: (index) => started.set(index, performance.now()),
        onCase: (index, c) => {
          say(caseLine(c, flags.specs, performance.now() - (started.get(index) ?? 0)));
          if (failedModes(c).length > 0) say(failureText(c));
        },
      });
      const checked = result.cases.length;
      const failing = result.cases.filter((c) => failedModes(c).length > 0).length;
      say(
        `${checked} specs × ${modes.length} modes × ${flags.runs} runs: ${result.falseVerdicts} false verdict${result.falseVerdicts === 1 ? '' : 's'}${failing > 0 ? ` in ${failing} spec${failing === 1 ? '' : 's'}` : ''} (${flags.engine}, seed ${seed}, ${(result.elapsedMs / 1000).toFixed(1)} s)`,
      );
      ctx.exitCode = result.falseVerdicts === 0 ? EXIT.ok : EXIT.failed;
    });
}

/** One spec's line: its index, its plugin, each mode's verdict and runs, its time. */
function caseLine(c: GuardCase, specs: number, ms: number): string {
  const modes = c.modes
    .map((m) => `${m.mode} ${m.verdict === 'passed' ? '✓' : '✗'} ${m.runs}`)
    .join(' · ');
  return `[${c.index}/${specs}] ${drawnPluginName(c.drawn)}: ${modes} (${(ms / 1000).toFixed(1)} s)`;
}

/** A failing spec: the draw, each failing mode's counterexample or error, the saved files. */
function failureText(c: GuardCase): string {
  const parts = [
    `  FALSE VERDICT on spec ${c.index} (policy: ${describeDrawnPolicy(c.drawn)}): ${JSON.stringify(c.drawn.draw)}`,
  ];
  for (const m of failedModes(c)) {
    parts.push(
      m.counterexample
        ? formatCounterexample(m.counterexample)
        : `${m.mode} mode could not check it: ${m.error ?? 'no counterexample'}`,
    );
  }
  if (c.saved.length > 0) parts.push(`  saved: ${c.saved.join(', ')}`);
  return parts.join('\n\n');
}
