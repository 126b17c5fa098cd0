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
