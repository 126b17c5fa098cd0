/**
 * The `receiptcheck` command tree. Each command lives in its own file under `commands/` and is
 * listed in `commands/all-commands.ts`; this file sets what they all share: output goes through
 * the context's io, and commander throws instead of exiting so `main` decides the exit code.
 */
import { createRequire } from 'node:module';
import { Command } from 'commander';
import type { CliContext } from './cli-context.ts';
import { commandsFor } from './commands/all-commands.ts';
import { EXIT_CODES_HELP } from './exit-codes.ts';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

/** Builds a fresh program for one invocation of `argv`, with the commands it needs (`commandsFor`). */
export async function createProgram(ctx: CliContext, argv: readonly string[]): Promise<Command> {
  const program = new Command('receiptcheck')
    .description(
      'Property-based and concurrency checks for idempotent retry-receipt handlers: plug in a handler, and receiptcheck tries to break the contract with generated retries, races and failures.',
    )
    .version(version, '-V, --version')
    .option('--verbose', 'print stacks with errors')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.io.stdout(s),
      writeErr: (s) => ctx.io.stderr(s),
      // Errors are printed once, as one line, by report-error.ts.
      outputError: () => {},
    })
    .showHelpAfterError(false)
    .addHelpText(
      'after',
      `
${EXIT_CODES_HELP}

Run "receiptcheck <command> --help" for a command's options, defaults and examples.`,
    );
  const registers = await Promise.all(commandsFor(argv).map((c) => c.load()));
  for (const register of registers) register(program, ctx);
  return program;
}
