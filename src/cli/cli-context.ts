/**
 * What every command shares: where to write, and the exit code its action decides. Commands set
 * `exitCode`; `main` returns it once commander has finished.
 */
import type { ExitCode } from './exit-codes.ts';
import type { CliIo } from './io.ts';

/** The state one invocation of the CLI carries through its command. */
export interface CliContext {
  readonly io: CliIo;
  exitCode: ExitCode;
}
