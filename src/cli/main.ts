/**
 * The CLI's entry point: parses `argv` (without `node` and the script), runs the command and
 * returns the exit code instead of exiting, so tests can call it in-process. `bin/receiptcheck.js`
 * sets `process.exitCode` from it.
 */
import { contain } from '../execute/runtime/contain/contain.ts';
import { keepAll } from '../execute/runtime/contain/handler-output.ts';
import { onInterrupt } from '../execute/runtime/interrupt.ts';
import { releaseKept } from '../execute/runtime/kept-for-next.ts';
import type { CliContext } from './cli-context.ts';
import { EXIT } from './exit-codes.ts';
import { type CliIo, processIo } from './io.ts';
import { createProgram } from './program.ts';
import { reportError } from './report-error.ts';

/**
 * Runs `receiptcheck <argv…>`; resolves to 0 (all held), 1 (counterexample) or 2 (bad usage).
 * After SIGINT or SIGTERM it reports "interrupted" and the process exits with 130 or 143 as it
 * returns (`execute/runtime/interrupt.ts`: the command is registered as live work until it has reported).
 */
export async function main(argv: readonly string[], given?: CliIo): Promise<number> {
  const io = given ?? processIo();
  const ctx: CliContext = { io, exitCode: EXIT.ok };
  const release = onInterrupt(() => {});
  // For the whole command, plugin code's prints are kept for counterexamples, off stdout, and its
  // escapes (a rejection nobody handles, `process.exit`) are charged to its calls.
  const uncontain = contain();
  const keepingAll = keepAll();
  try {
    await (await createProgram(ctx, argv)).parseAsync([...argv], { from: 'user' });
    return ctx.exitCode;
  } catch (thrown) {
    // Flags are read from argv directly: the error may come before commander has parsed them.
    return reportError(thrown, io, {
      verbose: argv.includes('--verbose'),
      json: argv.includes('--json'),
    });
  } finally {
    // One command is one check: what a runner kept for a next one goes now, not when it times out.
    await releaseKept();
    // The process itself stays contained until it exits: a callback a plugin left behind may
    // still fire after the verdict, and must neither print on stdout nor end it another way.
    if (given) {
      keepingAll();
      uncontain();
    }
    release();
  }
}
