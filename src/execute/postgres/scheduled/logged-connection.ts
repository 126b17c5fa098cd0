/**
 * The coordinator's own connection, for plain steps (a call with no crash or fault planned, a
 * world event) and the snapshot: nothing to decide, so every statement runs at once and is
 * written down for the trace, as a lane's would be. The client is the session's harness
 * connection, kept from run to run; this wrapper is one run's, sealed when the run is over.
 */
import type pg from 'pg';
import type { PgConnection, PgResult } from '../../../handlers/postgres/plugin.ts';
import { paramText } from '../../schedule/param-text.ts';
import type { LoggedStatement } from '../../schedule/statement-end.ts';
import { isTransactionControl, isWriteText } from '../../schedule/statement-kind.ts';
import { TransactionChanges } from './transaction-changes.ts';

/** A connection that logs every statement and how it ended. */
export class LoggedConnection {
  readonly proxy: PgConnection;
  private log: LoggedStatement[] = [];
  private readonly changes = new TransactionChanges();
  /** Statements sent whose answer has not come yet. */
  private pending = 0;
  private sealed = false;

  private constructor(
    private readonly client: pg.Client,
    /** The server process serving this connection, for `pg_terminate_backend`. */
    readonly pid: number,
  ) {
    this.proxy = {
      query: <R>(text: string, values?: readonly unknown[]) => this.query<R>(text, values),
    };
  }

  /** One run's wrapper over a kept connection (`client`, served by backend `pid`). */
  static over(client: pg.Client, pid: number): LoggedConnection {
    return new LoggedConnection(client, pid);
  }

  /** The run is over: later queries of plugin code left behind throw, and reach nothing. */
  seal(): void {
    this.sealed = true;
  }

  /**
   * Whether a statement is still out (plugin code that hung on a lock): nothing more can be sent
   * on this connection until it answers, which it may never do, so it is to be ended, not used.
   */
  get busy(): boolean {
    return this.pending > 0;
  }

  /** The statements logged since the last take. */
  take(): LoggedStatement[] {
    const log = this.log;
    this.log = [];
    return log;
  }

  /** Rolls back a transaction plugin code left open (it would hold its locks against the lanes). */
  async rollbackLeak(): Promise<void> {
    const status = this.client.getTransactionStatus();
    if (status !== 'T' && status !== 'E') return;
    await this.client.query('ROLLBACK');
    this.changes.reset();
  }

  private async query<R>(text: string, values?: readonly unknown[]): Promise<PgResult<R>> {
    if (this.sealed)
      throw new Error('receiptcheck: this connection belonged to a run that is over');
    const write = !isTransactionControl(text) && isWriteText(text);
    const params = paramText(values);
    const note = (settled: { value: unknown } | { error: unknown }) => {
      const status = this.client.getTransactionStatus();
      const end = this.changes.end(settled, write, status === 'T' || status === 'E');
      this.log.push({ sql: text, ...(params ? { params } : {}), ...end });
    };
    this.pending++;
    try {
      const value = await this.client.query(text, values as unknown[] | undefined);
      note({ value });
      return value as unknown as PgResult<R>;
    } catch (error) {
      note({ error });
      throw error;
    } finally {
      this.pending--;
    }
  }
}
