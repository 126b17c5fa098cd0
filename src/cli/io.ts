/**
 * Where the CLI writes, so tests can run `main([...])` in-process and read what it printed.
 * The real process writes to stdout and stderr; a progress display only ever goes to a TTY stderr.
 */
import { ownStream, ownWrite } from '../execute/runtime/contain/handler-output.ts';

/** The CLI's outputs. */
export interface CliIo {
  /** Writes text to standard output (reports, `--json`, `--help`). */
  stdout(text: string): void;
  /** Writes text to standard error (error lines, the summary under `--json`). */
  stderr(text: string): void;
  /** The terminal stream a progress bar may draw on; undefined when stderr is not a TTY. */
  readonly progressStream: NodeJS.WriteStream | undefined;
}

/**
 * The process's own streams, written past the capture of handler output (`execute/runtime/contain/`), so
 * that stdout holds receiptcheck's output alone.
 */
export function processIo(): CliIo {
  return {
    stdout: (text) => ownWrite('stdout', text),
    stderr: (text) => ownWrite('stderr', text),
    progressStream: process.stderr.isTTY ? ownStream(process.stderr) : undefined,
  };
}

/** An in-memory io for tests: everything written is collected; no progress display. */
export function memoryIo(): CliIo & { readonly out: string[]; readonly err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    progressStream: undefined,
  };
}
