/**
 * What the PostgreSQL proxy tells its owner (the scheduler, once wired): which connection a
 * statement comes from, what the statement is, and how it ended. The owner holds a statement by
 * not resolving `beforeStatement` yet: the proxy forwards nothing more from that connection until
 * it resolves.
 */
import type { ErrorFields } from './backend-frames.ts';
import type { BoundValue } from './frontend-frames.ts';

/** One client connection through the proxy. */
export interface ProxyConnectionInfo {
  /** 1 for the first connection the proxy accepted, 2 for the next, ...: stable for its life. */
  readonly connection: number;
  /**
   * The PostgreSQL backend's process id (from BackendKeyData), which `pg_blocking_pids` and
   * `pg_terminate_backend` name; set before the connection's first statement.
   */
  readonly pid: number | undefined;
}

/**
 * A statement the service sent: a simple Query, a function call, or an extended-protocol batch
 * (Parse/Bind/Describe/Execute/Close/Flush) up to its Sync, which the server answers as one.
 */
export interface ProxyStatement {
  readonly kind: 'simple' | 'extended' | 'function';
  /**
   * The SQL. For a batch: the SQL of each statement it binds (a named statement prepared in an
   * earlier batch is remembered), else of each it parses, joined by `;\n`.
   */
  readonly text: string;
  /** A batch's bound parameter values, every Bind's in order; empty for a simple Query. */
  readonly values: readonly BoundValue[];
}

/** How a statement ended, seen at the server's ReadyForQuery for it. */
export interface ProxyStatementResult {
  /** The transaction status after it: idle (`I`), in a transaction (`T`), in a failed one (`E`). */
  readonly status: 'I' | 'T' | 'E';
  /** The command tags of what completed (`INSERT 0 1`, `SELECT 2`, `BEGIN`), in order. */
  readonly commands: readonly string[];
  /** The server's error, if one ended it (e.g. `40P01` for a deadlock). */
  readonly error?: { readonly code: string; readonly message: string };
}

/** The owner's hooks. Only `beforeStatement` may hold anything. */
export interface ProxyHooks {
  /** Resolves when the statement may go to the server; a rejection closes the connection. */
  beforeStatement(info: ProxyConnectionInfo, statement: ProxyStatement): Promise<void>;
  /** The server has answered the statement (its ReadyForQuery has come). */
  afterStatement?(
    info: ProxyConnectionInfo,
    statement: ProxyStatement,
    result: ProxyStatementResult,
  ): void;
  /**
   * The server's error for this connection's statement, before the client hears it: the owner may
   * return other fields for the client to hear instead (a statement the owner cancelled to break a
   * deadlock is answered as PostgreSQL's own deadlock detector answers). Must not throw.
   */
  replaceError?(info: ProxyConnectionInfo, code: string): ErrorFields | undefined;
  /**
   * The connection is closed, both ways; `error` says why when it was not a clean end. A
   * statement still held at `beforeStatement` will never be sent: the owner should settle that
   * promise now (either way), so nothing waits on it. Must not throw.
   */
  connectionClosed?(info: ProxyConnectionInfo, error?: Error): void;
}
