/**
 * The connection a plugin gets in scheduled mode: the harness's real better-sqlite3 connection
 * behind a proxy (`connection-proxy.ts`) that turns every execution into a yield point.
 * `prepare` is free (it compiles, it does not touch data); a prepared statement's `run`/`get`/`all`/`iterate`, `exec`, `pragma`,
 * `serialize` and `backup` each are a point where the lane's gate (`StatementGate`) may park it
 * until the coordinator grants it, or, on an inline lane, replay it. `transaction()`
 * is re-implemented on top of the proxied `exec`, with better-sqlite3's semantics (nesting by
 * savepoints, `.deferred`/`.immediate`/`.exclusive`), so its BEGIN and COMMIT are points too.
 * Anything else is passed through; a method that returns the real connection returns the proxy,
 * so the plugin can never get past it.
 *
 * Locks without timing: the real connection has busy timeout 0. A plain SQLITE_BUSY where SQLite
 * would call its busy handler (no read transaction held yet) parks the lane as blocked, to be
 * retried when the scheduler picks it again; the coordinator counts the wait in grants and, when
 * the handler's own busy timeout (a virtual `PRAGMA busy_timeout`, default the harness's) runs
 * out, lets SQLITE_BUSY reach the handler, as production would. SQLITE_BUSY inside a transaction
 * that already read, and SQLITE_BUSY_SNAPSHOT, go to the handler at once: SQLite does not wait
 * for those either.
 *
 * A crash grant rolls the real connection back (SQLite drops the open transaction and releases
 * its locks, as when a process dies and its connection closes, which SQLite cannot tell apart
 * from a rollback between statements) and poisons the proxy: every later use throws, so nothing more from
 * that call reaches the database. The proxy's `inTransaction` goes through the gate too, since a
 * handler branches on it and a replay must see what the first run saw.
 */

import Database from 'better-sqlite3';
import type { Connection } from '../../../../handlers/plugin.ts';
import { INJECTED_FAULT_CODE, INJECTED_FAULT_MESSAGE } from '../../../../types/scheduled-trace.ts';
import { CrashSignal } from '../../../schedule/crash-signal.ts';
import type { StatementEnd } from '../../../schedule/statement-end.ts';
import { isLockingBegin, isRollback } from '../../../schedule/statement-kind.ts';
import { BUSY_TIMEOUT_MS } from '../../databases.ts';
import { Grant, type GrantCode } from '../protocol.ts';
import { connectionProxy } from './connection-proxy.ts';
import type { YieldPoints } from './yield-point.ts';

/** The code and message of an injected statement fault: what a failing store raises. */
export const FAULT_CODE = INJECTED_FAULT_CODE;
const FAULT_MESSAGE = INJECTED_FAULT_MESSAGE;

/** What a statement came to: its value, or the error it threw into the handler. */
export type StatementOutcome = { readonly value: unknown } | { readonly error: unknown };

/** `StatementGate.statement`'s answer for a point an inline lane replays rather than runs. */
export const REPLAYED = 'replayed';

/**
 * Where a connection's statements are let through: a worker's gate (`lane-gate.ts`, parks at
 * each point until granted), an inline lane's (`inline-gate.ts`, replays what already ran and
 * pauses where a worker would park), or the coordinator's statement log (`statement-log.ts`, lets
 * everything through and writes it down).
 */
export interface StatementGate {
  /** Whether statements are yield points (else they run at once and are only logged). */
  readonly gated: boolean;
  /**
   * Its `blocked` never returns: the lane pauses there and, once granted, runs the statement
   * again from a fresh attempt (an inline lane's gate). The SQLITE_BUSY it parked on is then
   * thrown away unread, so its stack need not be captured (see `execute`).
   */
  readonly discardsBlocked?: boolean;
  /** Before a statement (`args`: its bound parameters): the grant when it parked, `pass` when it goes on, `replayed` to replay it. */
  statement(
    sql: string,
    write: boolean,
    args?: readonly unknown[],
  ): GrantCode | 'pass' | typeof REPLAYED;
  /** How the statement ended. */
  ended(sql: string, end: StatementEnd): void;
  /** The statement hit a lock a busy handler would wait out: parks to retry it; returns the grant. */
  blocked(code: string, timeoutMs: number): GrantCode;
  /** Replaying: the recorded outcome of this point, returned or thrown. */
  replayed?(sql: string, args?: readonly unknown[]): unknown;
  /** What a statement that ran came to, for later replays. */
  record?(outcome: StatementOutcome): void;
  /** A read of connection state a handler may branch on (`inTransaction`), kept for replays. */
  observe?(read: () => boolean): boolean;
}

/** The real connection, its proxy, and the per-call state the yield points need. */
export class ScheduledConnection implements YieldPoints {
  readonly proxy: Connection;
  /** The handler's busy timeout, in virtual ms (a `PRAGMA busy_timeout` never reaches SQLite). */
  busyTimeoutMs = BUSY_TIMEOUT_MS;
  /** Whether injected faults apply (calls: yes; the harness's world events: no). */
  faultable = false;
  private crashedHere = false;
  private baseline = 0;
  /** Inside a transaction that has touched the database: SQLite would not wait on a lock now. */
  private holdsSnapshot = false;
  /**
   * Whether a statement that may change rows ran since `baseline` was read: until one does,
   * `total_changes()` cannot have moved, and reading it after every statement that ends outside a
   * transaction was a few percent of a run.
   */
  private mayHaveChanged = false;
  private readonly totalChanges: Database.Statement;

  constructor(
    readonly real: Database.Database,
    private readonly gate: StatementGate,
    private readonly closeOnCrash = true,
  ) {
    this.totalChanges = real.prepare('SELECT total_changes()').pluck();
    this.baseline = this.totalChanges.get() as number;
    this.proxy = connectionProxy(this);
  }

  /** Whether a crash grant closed this connection. */
  get crashed(): boolean {
    return this.crashedHere;
  }

  /** Runs one execution (with bound parameters `args`) as a yield point (see the file comment). */
  execute<T>(
    sql: string,
    write: boolean,
    body: () => T,
    args?: readonly unknown[],
    changesRows = write,
  ): T {
    if (this.crashedHere) throw new CrashSignal();
    const grant = this.gate.statement(sql, write, args);
    if (grant === REPLAYED) return this.gate.replayed?.(sql, args) as T;
    if (grant === Grant.crash) this.crash();
    if (grant === Grant.fault && write && this.faultable) {
      this.gate.ended(sql, { result: FAULT_CODE, durable: false });
      return this.fail(new Database.SqliteError(FAULT_MESSAGE, FAULT_CODE));
    }
    if (grant === Grant.giveUp) {
      // An inline lane resumed at the statement it was blocked on, only to give up.
      this.gate.ended(sql, { ...this.settle(sql, false), result: 'SQLITE_BUSY' });
      return this.fail(new Database.SqliteError('database is locked', 'SQLITE_BUSY'));
    }
    if (changesRows) this.mayHaveChanged = true;
    // A locking BEGIN on a lane whose gate throws a blocked statement's error away runs without
    // capturing a stack: about half a run's SqliteErrors were such a SQLITE_BUSY, each a captured
    // stack nobody read. Any other error is made again by running the BEGIN once more (a BEGIN
    // that failed changed nothing), at the same call below, so the handler's has its stack.
    let quiet =
      this.gate.discardsBlocked === true &&
      !this.holdsSnapshot &&
      this.busyTimeoutMs > 0 &&
      isLockingBegin(sql);
    for (;;) {
      const stackLimit = Error.stackTraceLimit;
      if (quiet) Error.stackTraceLimit = 0;
      try {
        const value = body();
        if (quiet) Error.stackTraceLimit = stackLimit;
        this.gate.ended(sql, this.settle(sql, true));
        this.gate.record?.({ value });
        return value;
      } catch (thrown) {
        if (quiet) {
          Error.stackTraceLimit = stackLimit;
          quiet = false;
          if ((thrown as { code?: unknown } | null)?.code !== 'SQLITE_BUSY') continue;
        }
        if (thrown instanceof CrashSignal) throw thrown;
        const code = (thrown as { code?: unknown } | null)?.code;
        if (
          this.gate.gated &&
          code === 'SQLITE_BUSY' &&
          !this.holdsSnapshot &&
          this.busyTimeoutMs > 0
        ) {
          const again = this.gate.blocked(code, this.busyTimeoutMs);
          if (again === Grant.run) continue;
          if (again === Grant.crash) this.crash();
        }
        this.gate.ended(sql, { ...this.settle(sql, false), result: String(code ?? 'error') });
        return this.fail(thrown);
      }
    }
  }

  /** `inTransaction` as the handler sees it: false once crashed, and kept for replays. */
  inTransactionNow(): boolean {
    if (this.crashedHere) return false;
    const read = () => this.real.inTransaction;
    return this.gate.observe ? this.gate.observe(read) : read();
  }

  /** Throws `error` into the handler, recorded for replays. */
  private fail(error: unknown): never {
    this.gate.record?.({ error });
    throw error;
  }

  /**
   * Forgets changes so far, so `durable` only counts what commits from now on: after a rollback
   * behind the proxy's back, and on the coordinator's connection after each reset to the template.
   */
  resetBaseline(): void {
    this.holdsSnapshot = false;
    // Nothing that changes rows ran since the baseline was read: it still holds (each run's
    // `startRun` on the coordinator's connection, now that resets run on a connection of their own).
    if (!this.mayHaveChanged) return;
    this.mayHaveChanged = false;
    this.baseline = this.totalChanges.get() as number;
  }

  /**
   * Rolls back a transaction the handler left open (it would hold the lock against every other
   * lane); true when there was one.
   */
  rollbackLeak(): boolean {
    if (this.crashedHere || !this.real.inTransaction) return false;
    this.real.exec('ROLLBACK');
    this.resetBaseline();
    return true;
  }

  /**
   * Dies at this point: what the connection held is rolled back and its locks released, and the
   * proxy is poisoned. With `closeOnCrash` the real connection closes, as when a process dies;
   * without (an inline lane's, a worker lane's), it only rolls back, which is all SQLite sees of
   * a close between statements, so that the lane's next call can have it (`revive`, or a new
   * `ScheduledConnection` over it: `kept-lane-connection.ts`).
   */
  crash(): never {
    this.crashedHere = true;
    try {
      if (this.closeOnCrash) this.real.close();
      else if (this.real.inTransaction) this.real.exec('ROLLBACK');
    } catch {
      // Already unusable; the point is that nothing more reaches the database.
    }
    throw new CrashSignal();
  }

  /**
   * After a crash that kept the real connection open: usable again, for a new call, as a new
   * connection would be (`newRun`).
   */
  revive(): void {
    this.crashedHere = false;
    this.newRun();
    this.resetBaseline();
  }

  /**
   * This object kept for a new run: the handler's busy timeout the default again, as on a
   * connection just opened; the real connection's own settings are its owner's to check
   * (`kept-connections.ts`).
   */
  newRun(): void {
    this.busyTimeoutMs = BUSY_TIMEOUT_MS;
  }

  /** How a statement ended; `durable` when it left no transaction open and changed rows. */
  private settle(sql: string, ok: boolean): { result: string; durable: boolean } {
    if (this.real.inTransaction) {
      if (ok && !/^\s*BEGIN\b/i.test(sql)) this.holdsSnapshot = true;
      return { result: 'ok', durable: false };
    }
    this.holdsSnapshot = false;
    if (!this.mayHaveChanged) return { result: 'ok', durable: false };
    this.mayHaveChanged = false;
    const total = this.totalChanges.get() as number;
    const durable = ok && !isRollback(sql) && total > this.baseline;
    this.baseline = total;
    return { result: 'ok', durable };
  }
}
