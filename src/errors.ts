/**
 * The one catalogue of errors receiptcheck reports to users. Each has a stable `code`, and a
 * message that says what to do. Errors cross worker boundaries as plain `{code, message}` data.
 */

/** Stable error codes; scripts may match on them. */
export type ErrorCode =
  | 'E_HANDLER_NOT_FOUND'
  | 'E_HANDLER_LOAD'
  | 'E_HANDLER_NO_DEFAULT'
  | 'E_HANDLER_SHAPE'
  | 'E_HANDLER_SETUP'
  | 'E_SNAPSHOT_SHAPE'
  | 'E_CALL_TIMEOUT'
  /** Plugin code let an error escape (a rejection nobody handled) after every call had returned. */
  | 'E_HANDLER_ESCAPE'
  /** A time limit stopped a check before the runs asked for with `minRuns`: incomplete, not passed. */
  | 'E_TOO_FEW_RUNS'
  | 'E_BAD_OPTION'
  | 'E_BAD_COUNTEREXAMPLE'
  | 'E_BAD_SCENARIO'
  /** A known-findings file that cannot be read or is malformed; the message names the file and the entry. */
  | 'E_BAD_KNOWN_FINDINGS'
  /** A zod schema `fieldsFromZod` cannot turn into fields as it stands; the message names the field and the fix. */
  | 'E_BAD_SCHEMA'
  | 'E_WORKER'
  /** The PostgreSQL server could not be started or reached (the message gives the server's own words). */
  | 'E_POSTGRES'
  /** A service description (`--service FILE`) that cannot be read or is malformed; the message names the field. */
  | 'E_SERVICE_DESCRIPTION'
  /** A described service could not be started or never got ready (the message quotes its last output). */
  | 'E_SERVICE_START'
  /** A described service cannot run in the mode asked for (scheduled mode on SQLite); the message says why. */
  | 'E_SERVICE_MODE'
  /** A described service on PostgreSQL kept a transaction open between requests, so its database cannot be reset. */
  | 'E_SERVICE_TRANSACTION'
  /** A package receiptcheck leaves optional is not installed; the message gives the `npm install` command. */
  | 'E_MISSING_PACKAGE'
  /** A plugin declared `replayable` took another path when a call was replayed (scheduled mode then uses threads). */
  | 'E_NOT_REPLAYABLE'
  /** The command line itself is wrong: an unknown command or option, a missing argument. */
  | 'E_USAGE'
  /** SIGINT or SIGTERM stopped the work before a verdict (exit code 130 or 143, not 2). */
  | 'E_INTERRUPTED'
  /** A fault inside receiptcheck (or an uncoded throw from a plugin's world functions). */
  | 'E_INTERNAL';

/** An error as plain data, the form it takes when crossing a thread or process boundary. */
export interface ErrorData {
  readonly code: ErrorCode;
  readonly message: string;
}

/** A user-facing error with a stable code: bad input, a plugin that does not fit, a hung call. */
export class ReceiptcheckError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ReceiptcheckError';
    this.code = code;
  }

  /** The error as `{code, message}`, for crossing a worker boundary. */
  toData(): ErrorData {
    return { code: this.code, message: this.message };
  }

  /** Rebuilds an error sent as data. */
  static fromData(data: ErrorData): ReceiptcheckError {
    return new ReceiptcheckError(data.code, data.message);
  }
}

/**
 * Whether a value is a `ReceiptcheckError`: of this copy of receiptcheck, or by shape of another
 * copy or realm (a plugin importing a linked checkout, a `vm` context), whose code then still
 * reaches the user as it was thrown.
 */
export function isReceiptcheckError(value: unknown): value is ReceiptcheckError {
  if (value instanceof ReceiptcheckError) return true;
  const v = value as { name?: unknown; code?: unknown; message?: unknown } | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    v.name === 'ReceiptcheckError' &&
    typeof v.code === 'string' &&
    /^E_[A-Z_]+$/.test(v.code) &&
    typeof v.message === 'string'
  );
}

/** The message of anything thrown, without a stack. */
export function messageOf(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message;
  if (typeof thrown !== 'object' || thrown === null) return String(thrown);
  const message = (thrown as { message?: unknown }).message;
  if (typeof message === 'string') return message; // an Error of another realm
  // A thrown plain object (a library's error payload): its fields, not `[object Object]`.
  let json: string | undefined;
  try {
    json = JSON.stringify(thrown);
  } catch {
    json = undefined;
  }
  const text = json && json !== '{}' ? json : Object.prototype.toString.call(thrown);
  return `a non-Error value was thrown: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}

/**
 * The class of a thrown `Error` (also of another realm, by shape), for a report that must say what
 * escaped: its constructor's name (`TypeError`, `SqliteError`, `DatabaseError`, a subclass that
 * never set `name`), else its `name`; undefined for a value that is no `Error` (a string, a plain
 * object: `messageOf` says what it is).
 */
export function errorClassOf(thrown: unknown): string | undefined {
  if (typeof thrown !== 'object' || thrown === null) return undefined;
  const e = thrown as { name?: unknown; message?: unknown };
  if (!(thrown instanceof Error) && typeof e.message !== 'string') return undefined;
  const made = (thrown as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof made === 'string' && made !== '' && made !== 'Error' && made !== 'Object') return made;
  return typeof e.name === 'string' && e.name !== '' ? e.name : 'Error';
}

/** The signals receiptcheck stops on, and the exit code each ends the process with (128 + its number). */
export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/** A signal receiptcheck stops on. */
export type StopSignal = keyof typeof SIGNAL_EXIT_CODES;

/**
 * Work stopped by SIGINT (Ctrl-C) or SIGTERM before it reached a verdict. Not a finding and not
 * a usage error: the CLI prints "interrupted" and exits with `exitCode` (130 or 143).
 */
export class InterruptedError extends ReceiptcheckError {
  readonly signal: StopSignal;
  readonly exitCode: (typeof SIGNAL_EXIT_CODES)[StopSignal];

  constructor(signal: StopSignal, message = `interrupted by ${signal} before a verdict`) {
    super('E_INTERRUPTED', message);
    this.name = 'InterruptedError';
    this.signal = signal;
    this.exitCode = SIGNAL_EXIT_CODES[signal];
  }
}

/** Whether a value is an `InterruptedError`. */
export function isInterruptedError(value: unknown): value is InterruptedError {
  return value instanceof InterruptedError;
}
