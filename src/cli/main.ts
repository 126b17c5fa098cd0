/**
 * The CLI's entry point: parses `argv` (without `node` and the script), runs the command and
 * returns the exit code instead of exiting, so tests can call it in-process. `bin/receiptcheck.js`
 * sets `process.exitCode` from it.
 */
import type { CliContext } from './cli-context.ts';
import { EXIT } from './exit-codes.ts';
import { type CliIo, processIo } from './io.ts';
import { createProgram } from './program.ts';
import { reportError } from './report-error.ts';

/** Runs `receiptcheck <argv…>`; resolves to 0 (all held), 1 (counterexample) or 2 (bad usage). */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const ctx: CliContext = { io, exitCode: EXIT.ok };
  try {
    await createProgram(ctx).parseAsync([...argv], { from: 'user' });
    return ctx.exitCode;
  } catch (thrown) {
    // Flags are read from argv directly: the error may come before commander has parsed them.
    return reportError(thrown, io, {
      verbose: argv.includes('--verbose'),
      json: argv.includes('--json'),
    });
  }
}
