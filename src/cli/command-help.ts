/**
 * Help text shared by the commands: the defaults (read from `resolveOptions`, the one place they
 * are set), the environment variables, and the exit codes.
 */

import { DEFAULT_OUT_DIR } from '../api/counterexample-store.ts';
import { resolveOptions } from '../api/options.ts';
import { DATABASE_URL_ENV } from '../execute/postgres/database-url-env.ts';
import { MODES } from '../types/mode.ts';
import { DEFAULT_SEED, SEED_ENV } from '../types/options.ts';
import { DEFAULT_SCHEDULES_MAX } from '../types/replay.ts';
import { EXIT_CODES_HELP } from './exit-codes.ts';

/** The defaults, resolved from no options and an empty environment. */
export const DEFAULTS = resolveOptions({}, {});

/** The environment block of `--help`. */
export const ENV_HELP = `Environment:
  ${SEED_ENV}  the seed when --seed is not given (default ${DEFAULT_SEED}); every run prints
                     the seed it used, so a CI failure reproduces locally with the same value
  ${DATABASE_URL_ENV}  a PostgreSQL server for PostgreSQL handlers and services, as --database-url`;

/** What --database-url does, for the commands that run handlers. */
export const DATABASE_URL_HELP =
  'PostgreSQL handlers and services only: run on this server (postgres://user:password@host:port/db) instead of an embedded one the harness starts and stops; it creates and drops databases of its own there and touches nothing else (default: $' +
  DATABASE_URL_ENV +
  ')';

/** Where counterexamples go, for `--help`. */
export const OUT_HELP = `Counterexamples:
  A failing run writes the shrunk sequence to --out (default ./${DEFAULT_OUT_DIR}/) as a case file.
  "receiptcheck replay FILE" re-runs it; copied into scenarios/, it becomes a regression test.
  A concurrent-mode counterexample is first searched for in scheduled mode (at most ${DEFAULT_SCHEDULES_MAX}
  schedules); a schedule that reproduces it is saved in the same file, and replay runs it first.`;

/** The modes, for option descriptions. */
export const MODES_TEXT = MODES.join('|');

/** Joins help blocks for `addHelpText('after', …)`. */
export function helpBlocks(...blocks: string[]): string {
  return `\n${[...blocks, EXIT_CODES_HELP].join('\n\n')}`;
}
