/**
 * A prepared statement as the plugin sees it in scheduled mode: every execution (`run`, `get`,
 * `all`, `iterate`) is a yield point of its connection; the chaining setters and the read-only
 * properties pass through to the real statement.
 */
import type Database from 'better-sqlite3';
import type { Connection } from '../../../../handlers/plugin.ts';
import { isTransactionControl } from '../../../schedule/statement-kind.ts';
import type { YieldPoints } from './yield-point.ts';

/** A prepared statement whose executions are yield points. */
export class ScheduledStatement {
  private readonly write: boolean;
  /** SQLite's own answer: a read-only statement cannot change `total_changes()`. */
  private readonly changesRows: boolean;

  constructor(
    private readonly conn: YieldPoints,
    private readonly real: Database.Statement,
    private readonly db: () => Connection,
  ) {
    this.write = !real.readonly && !isTransactionControl(real.source);
    this.changesRows = !real.readonly;
  }

  get source(): string {
    return this.real.source;
  }
  get reader(): boolean {
    return this.real.reader;
  }
  get readonly(): boolean {
    return this.real.readonly;
  }
  get busy(): boolean {
    return this.real.busy;
  }
  get database(): Connection {
    return this.db();
  }
  run(...args: unknown[]): Database.RunResult {
    return this.point(() => this.real.run(...args), args);
  }
  get(...args: unknown[]): unknown {
    return this.point(() => this.real.get(...args), args);
  }
  all(...args: unknown[]): unknown[] {
    return this.point(() => this.real.all(...args), args);
  }
  /** Rows are read within the one yield point, then handed out: a lazy cursor would span points. */
  iterate(...args: unknown[]): IterableIterator<unknown> {
    const rows = this.point(() => [...this.real.iterate(...args)], args);
    return rows[Symbol.iterator]();
  }
  /** Runs one execution of this statement, bound to `args`, as the connection's yield point. */
  private point<T>(body: () => T, args: readonly unknown[]): T {
    return this.conn.execute(this.real.source, this.write, body, args, this.changesRows);
  }
  columns(): Database.ColumnDefinition[] {
    return this.real.columns();
  }
  pluck(toggle?: boolean): this {
    this.real.pluck(toggle);
    return this;
  }
  expand(toggle?: boolean): this {
    this.real.expand(toggle);
    return this;
  }
  raw(toggle?: boolean): this {
    this.real.raw(toggle);
    return this;
  }
  safeIntegers(toggle?: boolean): this {
    this.real.safeIntegers(toggle);
    return this;
  }
  bind(...args: unknown[]): this {
    this.real.bind(...args);
    return this;
  }
}
