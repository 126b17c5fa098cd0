/**
 * How a lane's statement ended, as the trace records it, on either engine; and a statement a
 * plain step ran, as the coordinator logs it.
 */

/** How the statement a lane last ran ended. */
export interface StatementEnd {
  /** `ok`, or the engine's error code (SQLite's `SQLITE_BUSY_SNAPSHOT`, PostgreSQL's SQLSTATE). */
  readonly result: string;
  /** It made writes durable: a commit, or a write outside any transaction. */
  readonly durable: boolean;
}

/** A statement a plain step ran, as logged. */
export interface LoggedStatement extends StatementEnd {
  readonly sql: string;
  readonly params?: readonly string[];
}

/**
 * A yield point a lane went past without parking, because the coordinator had told it the next
 * grants would be its own anyway (a run-ahead budget; SQLite's lanes): the statement and how it
 * ended.
 */
export interface PassedPoint {
  readonly point: 'statement' | 'reply';
  readonly sql?: string;
  /** The statement's bound parameters, as text (`param-text.ts`). */
  readonly params?: readonly string[];
  readonly write: boolean;
  /** Unset for the reply; `blocked` when the statement hit a lock (the worker then parks). */
  end?: StatementEnd;
}
