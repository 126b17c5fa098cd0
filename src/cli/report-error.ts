/**
 * Turns anything a command threw into one line on stderr and exit code 2:
 * `receiptcheck: E_CODE: message`. Commander's own usage errors get the same shape; the stack is
 * shown only with `--verbose`. Help and version requests exit 0. An interrupt is no error: it
 * says `receiptcheck: interrupted by SIGTERM …` and exits 130 or 143.
 */
import { CommanderError } from 'commander';
import { type ErrorCode, isInterruptedError, isReceiptcheckError, messageOf } from '../errors.ts';
import { noteInterruptReported } from '../execute/runtime/interrupt.ts';
import { encodeJson } from '../report/encode.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';
import type { CliIo } from './io.ts';

/** How to report: `verbose` adds stacks, `json` also prints `{verdict: 'error', …}` on stdout. */
export interface ReportErrorOptions {
  readonly verbose: boolean;
  readonly json: boolean;
}

/** Reports `thrown`; returns the exit code. */
export function reportError(thrown: unknown, io: CliIo, options: ReportErrorOptions): ExitCode {
  if (isInterruptedError(thrown)) {
    // Not an error to act on, and never a verdict: one line, and 128 + the signal's number.
    noteInterruptReported();
    io.stderr(`receiptcheck: ${oneLine(thrown.message)}\n`);
    if (options.json)
      io.stdout(
        `${encodeJson({ verdict: 'interrupted', signal: thrown.signal, message: thrown.message })}\n`,
      );
    return thrown.exitCode;
  }
  if (thrown instanceof CommanderError) {
    // Help was printed (by request: exit 0; because the command was missing: usage error).
    if (thrown.code === 'commander.helpDisplayed' || thrown.code === 'commander.version')
      return EXIT.ok;
    if (thrown.code === 'commander.help') return thrown.exitCode === 0 ? EXIT.ok : EXIT.usage;
    const code: ErrorCode =
      thrown.code === 'commander.invalidArgument' ? 'E_BAD_OPTION' : 'E_USAGE';
    // Commander's few lines belong together ("unknown option '--run'" / "(Did you mean --runs?)").
    const message = thrown.message
      .replace(/^error:\s*/, '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '')
      .join(' ');
    return emit(io, options, code, `${message} (see --help)`, undefined);
  }
  if (isReceiptcheckError(thrown))
    return emit(io, options, thrown.code, oneLine(thrown.message), thrown);
  return emit(
    io,
    options,
    'E_INTERNAL',
    `${oneLine(messageOf(thrown))}${options.verbose ? '' : ' (run again with --verbose for the stack)'}`,
    thrown,
  );
}

function emit(
  io: CliIo,
  options: ReportErrorOptions,
  code: ErrorCode,
  message: string,
  thrown: unknown,
): ExitCode {
  io.stderr(`receiptcheck: ${code}: ${message}\n`);
  if (options.verbose && thrown instanceof Error) {
    io.stderr(`${thrown.stack ?? ''}\n`);
    if (thrown.cause instanceof Error) io.stderr(`caused by: ${thrown.cause.stack ?? ''}\n`);
  }
  if (options.json) io.stdout(`${encodeJson({ verdict: 'error', error: { code, message } })}\n`);
  return EXIT.usage;
}

/** The first non-empty line of a message: a plugin's syntax error may span many. */
export function oneLine(message: string): string {
  const lines = message.split('\n').map((l) => l.trim());
  const first = lines.find((l) => l !== '') ?? '';
  return lines.filter((l) => l !== '').length > 1 ? `${first} …` : first;
}
