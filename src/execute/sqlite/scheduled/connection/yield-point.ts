/**
 * What a proxied statement or transaction needs from its connection: one call that makes a
 * statement a yield point, and whether a transaction is open right now. `ScheduledConnection`
 * implements it; naming it here keeps the statement and transaction proxies from importing the
 * connection that creates them.
 */

/** The connection side of a yield point. */
export interface YieldPoints {
  /**
   * Runs `body` (one statement, `sql`) once the lane's gate lets it; `write` marks a write (a
   * fault target), `changesRows` (default `write`) one that may change rows at all.
   */
  execute<T>(
    sql: string,
    write: boolean,
    body: () => T,
    args?: readonly unknown[],
    changesRows?: boolean,
  ): T;
  /** Whether the real connection holds an open transaction now. */
  inTransactionNow(): boolean;
}
