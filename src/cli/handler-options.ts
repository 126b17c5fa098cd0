/**
 * The options every command that runs a handler under the scheduler takes alike (`run`,
 * `prove`): which handler and operation, its lanes and workers, the call budget, the PostgreSQL
 * server. Declared once, so the two commands cannot drift apart.
 */
import type { Command } from 'commander';
import { ReceiptcheckError } from '../errors.ts';
import type { LaneMode } from '../types/mode.ts';
import { DATABASE_URL_HELP, DEFAULTS } from './command-help.ts';
import { parseInteger, parseLanes } from './parse-flags.ts';

/** The flags `addHandlerOptions` declares, as commander parses them. */
export interface HandlerFlags {
  handler?: string;
  /** Set by `--service`, and copied to `handler` before the action runs. */
  service?: string;
  operation?: string;
  workers?: number;
  lanes?: LaneMode;
  callTimeoutMs?: number;
  databaseUrl?: string;
}

/**
 * Declares `--handler`, `--service`, `--operation`, `--workers`, `--lanes`, `--call-timeout-ms`
 * and `--database-url`. `--service FILE` is the handler a service description stands for: it is
 * copied to `handler` before the command's action runs, so every command treats it as one.
 */
export function addHandlerOptions(command: Command): Command {
  return addServiceOption(
    command.option(
      '--handler <path|name>',
      `a plugin module path, or a bundled name (default: ${DEFAULTS.handler})`,
    ),
    'a service description (JSON): check a running service in any language instead of a plugin (see docs/services.md)',
  )
    .option(
      '--operation <name>',
      'the operation to check: picks among its bundled handlers; a plugin must implement it (default: the one the handler names; list: receiptcheck operations)',
    )
    .option(
      '--workers <n>',
      `worker threads for concurrent and scheduled modes (default: ${DEFAULTS.workers})`,
      parseInteger,
    )
    .option(
      '--lanes <lanes>',
      `scheduled mode: auto (inline for a handler declared replayable, else threads), inline or threads; the traces are the same (default: ${DEFAULTS.lanes})`,
      parseLanes,
    )
    .option(
      '--call-timeout-ms <ms>',
      `a call running longer is a hang: a counterexample like any (default: ${DEFAULTS.callTimeoutMs})`,
      parseInteger,
    )
    .option('--database-url <url>', DATABASE_URL_HELP);
}

/**
 * Declares `--service <file>` (described by `help`) beside a command's `--handler`: the file is
 * copied to `handler` before the action runs; both at once is `E_USAGE`.
 */
export function addServiceOption(command: Command, help: string): Command {
  return command.option('--service <file>', help).hook('preAction', (self) => {
    const { handler, service } = self.opts<HandlerFlags>();
    if (service === undefined) return;
    if (handler !== undefined)
      throw new ReceiptcheckError('E_USAGE', 'give --handler or --service, not both');
    self.setOptionValue('handler', service);
  });
}
