/**
 * How a statement ended, for the trace: `ok` or its SQLSTATE, and whether it made writes durable
 * (a COMMIT that committed changed rows, or a write outside a transaction that changed some).
 * The server's own transaction status says whether a transaction is open, so nothing is guessed
 * from the statement's text but whether it writes.
 */
import type pg from 'pg';
import type { StatementEnd } from '../../schedule/statement-end.ts';

/** Counts one connection's changes inside its open transaction, to say when a commit is durable. */
export class TransactionChanges {
  private changes = 0;

  /**
   * The end of a statement that got `settled` back; `write` when its text writes; `open` whether
   * the backend is inside a transaction block now.
   */
  end(
    settled: { readonly value: unknown } | { readonly error: unknown },
    write: boolean,
    open: boolean,
  ): StatementEnd {
    if ('error' in settled) {
      if (!open) this.changes = 0;
      return { result: sqlStateOf(settled.error), durable: false };
    }
    const results = (
      Array.isArray(settled.value) ? settled.value : [settled.value]
    ) as pg.QueryResult[];
    const changed = write ? results.reduce((n, r) => n + (r.rowCount ?? 1), 0) : 0;
    if (open) {
      this.changes += changed;
      return { result: 'ok', durable: false };
    }
    const committed = results.some((r) => r.command === 'COMMIT') ? this.changes : 0;
    this.changes = 0;
    return { result: 'ok', durable: committed + changed > 0 };
  }

  /** The transaction was rolled back behind the trace's back (a leak cleaned up, a crash). */
  reset(): void {
    this.changes = 0;
  }
}

/** A thrown error's SQLSTATE, or `error` when it has none. */
export function sqlStateOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'error';
}
