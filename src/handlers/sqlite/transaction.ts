/**
 * The SQLite transaction every bundled SQLite handler runs its call in, and what its failures
 * become: the reference's choices by default, which mutants change to carry their bug.
 */
import { type Outcome, outcome } from '../../model/outcome.ts';
import type { Connection } from '../plugin.ts';

/** How a transaction begins and what its failures become; the reference's choices by default. */
export interface TransactionStyle {
  /** The statement that opens it. Default `BEGIN IMMEDIATE`: the write lock before the first read. */
  readonly begin?: string;
  /** Maps a thrown error to an outcome, or rethrows. Default: write failures become `error`. */
  readonly onError?: (thrown: unknown) => Outcome;
}

/**
 * Runs `body` in a transaction: commits what it returns, rolls back on a throw. By default it
 * begins with `BEGIN IMMEDIATE`, and a failing write inside maps to `error` (the receipt store
 * failing is the expected case); anything else, such as SQLITE_BUSY, escapes for the harness to
 * report. Mutants change `style` to carry their bug.
 */
export function inTransaction(
  db: Connection,
  body: () => Outcome,
  style: TransactionStyle = {},
): Outcome {
  db.exec(style.begin ?? 'BEGIN IMMEDIATE');
  try {
    const result = body();
    db.exec('COMMIT');
    return result;
  } catch (thrown) {
    if (db.inTransaction) db.exec('ROLLBACK');
    return (style.onError ?? mapWriteFailure)(thrown);
  }
}

/** The reference's transaction: `inTransaction` with its default style. */
export function inImmediateTransaction(db: Connection, body: () => Outcome): Outcome {
  return inTransaction(db, body);
}

/** Write failures become `error`; anything else is rethrown. */
export function mapWriteFailure(thrown: unknown): Outcome {
  if (isWriteFailure(thrown)) return outcome.error((thrown as Error).message);
  throw thrown;
}

/** A constraint or trigger failure of a write: what a failing receipt store looks like. */
export function isWriteFailure(thrown: unknown): boolean {
  const code = (thrown as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT');
}
