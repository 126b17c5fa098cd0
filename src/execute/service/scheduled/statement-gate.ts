/**
 * The proxy's owner in scheduled mode: it turns every statement a service sends through the
 * PostgreSQL proxy (`../pg-proxy/`) into a yield point of one of the step's lanes, and tells that
 * lane's driver (`service-lane-driver.ts`) where the lane stopped.
 *
 * Attribution. The grant loop runs at most one lane at a time, so the lane whose code runs now
 * (`running`: the one just started or granted, until its next report) is the one a statement
 * comes from, unless its connection says otherwise. A connection belongs to a lane while it has a
 * statement held or on the server, or a transaction open; then it is free again (a pooled
 * connection may serve the next request). A world event's own connection is a lane's for good
 * (`own`).
 *
 * The service's own traffic between calls: a statement from a free connection while no lane runs
 * is let through unheld and unrecorded, unless a plain step (a call the coordinator runs alone)
 * is under way, whose statements are let through and logged for the trace (`plain`).
 */
import type pg from 'pg';
import type { Observed } from '../../../model/outcome.ts';
import { deadlockFields, QUERY_CANCELED } from '../../postgres/scheduled/deadlock.ts';
import { TransactionChanges } from '../../postgres/scheduled/transaction-changes.ts';
import { Mailbox } from '../../schedule/mailbox.ts';
import { paramText } from '../../schedule/param-text.ts';
import type { LoggedStatement } from '../../schedule/statement-end.ts';
import { isTransactionControl, isWriteText } from '../../schedule/statement-kind.ts';
import type { ErrorFields } from '../pg-proxy/backend-frames.ts';
import type { BoundValue } from '../pg-proxy/frontend-frames.ts';
import type {
  ProxyConnectionInfo,
  ProxyHooks,
  ProxyStatement,
  ProxyStatementResult,
} from '../pg-proxy/proxy-hooks.ts';
import { type OutStatement, outStatement } from './out-statement.ts';

/** Where a service lane's code stopped next. */
export type GateReport =
  /** A statement the service sent, held before the server. */
  | {
      readonly type: 'statement';
      readonly sql: string;
      readonly values: readonly BoundValue[];
      readonly write: boolean;
    }
  /** The call's reply came: what its client hears. */
  | { readonly type: 'reply'; readonly observed: Observed }
  /** A world event finished. */
  | { readonly type: 'done' }
  /** A world event threw: a harness fault, not a finding. */
  | { readonly type: 'failed'; readonly error: unknown };

/** One connection through the proxy, as the gate sees it. */
interface Conn {
  pid: number | undefined;
  owner: number | undefined;
  held?: {
    readonly sql: string;
    readonly write: boolean;
    readonly go: () => void;
    readonly fail: (error: Error) => void;
  };
  out?: OutStatement;
  /** A plain step's statement: logged when answered. */
  logged?: { readonly sql: string; readonly params?: readonly string[]; readonly write: boolean };
  open: boolean;
  /** Inside a transaction after its last statement (`T` or `E`), and that statement. */
  inTransaction?: string;
  readonly changes: TransactionChanges;
}

/** The proxy hooks of one scheduled runner. */
export class StatementGate implements ProxyHooks {
  /** The lane whose code runs now, if any. */
  running: number | undefined;
  private readonly conns = new Map<number, Conn>();
  private readonly owned = new Map<number, number>();
  private readonly boxes = new Map<number, Mailbox<GateReport>>();
  private plainLog: LoggedStatement[] | undefined;

  /** Statements from backend `pid` (a world event's connection) are lane `lane`'s until `disown`. */
  own(pid: number, lane: number): void {
    this.owned.set(pid, lane);
  }

  disown(pid: number): void {
    this.owned.delete(pid);
  }

  /** From now until `takePlain`, statements from free connections are let through and logged. */
  startPlain(): void {
    this.plainLog = [];
  }

  /** What the plain step sent, in order; logging stops. */
  takePlain(): LoggedStatement[] {
    const log = this.plainLog ?? [];
    this.plainLog = undefined;
    return log;
  }

  /** Posts `report` for `lane`; the lane's code runs no more until it is granted again. */
  post(lane: number, report: GateReport): void {
    if (this.running === lane) this.running = undefined;
    this.box(lane).post(report);
  }

  /** The lane's next report, or undefined when none came within `limitMs`. */
  next(lane: number, limitMs: number): Promise<GateReport | undefined> {
    return this.box(lane).next(limitMs);
  }

  /** Lets the statement lane `lane` is parked at go to the server; the lane runs from now. */
  release(lane: number): OutStatement {
    const c = [...this.conns.values()].find((k) => k.owner === lane && k.held);
    const held = c?.held;
    if (!c || !held || c.pid === undefined)
      throw new Error(`lane ${lane + 1} has no statement held at the proxy`);
    c.held = undefined;
    c.out = outStatement(c.pid, held.sql);
    this.running = lane;
    held.go();
    return c.out;
  }

  /** The backends of lane `lane`'s connections now. */
  pidsOf(lane: number): number[] {
    return this.ownedConns(lane).flatMap((c) => (c.pid === undefined ? [] : [c.pid]));
  }

  /** The backends of every lane-owned connection, and of those with a statement still out. */
  lanePids(): Set<number> {
    const pids = new Set<number>();
    for (const c of this.conns.values()) if (c.owner !== undefined && c.pid) pids.add(c.pid);
    return pids;
  }

  /** Backends with a statement on the server and no answer yet. */
  waitingPids(): number[] {
    return [...this.conns.values()].flatMap((c) =>
      c.out && !c.out.end && c.pid !== undefined ? [c.pid] : [],
    );
  }

  /** The open connections inside a transaction, and the statement each ran last. */
  inTransaction(): { readonly pid: number | undefined; readonly sql: string }[] {
    return [...this.conns.values()].flatMap((c) =>
      c.open && c.inTransaction !== undefined ? [{ pid: c.pid, sql: c.inTransaction }] : [],
    );
  }

  /** Every backend open through the proxy (after a hang: all of them are ended). */
  allPids(): number[] {
    return [...this.conns.values()].flatMap((c) => (c.open && c.pid ? [c.pid] : []));
  }

  /**
   * Lane `lane` crashed: each connection holding a statement of it is closed by the proxy, both
   * ways, so the service's driver sees its connection die at once, before its code goes on (a
   * pool then drops the client rather than lend it again).
   */
  abandon(lane: number): void {
    for (const c of this.ownedConns(lane)) {
      c.held?.fail(new Error(`lane ${lane + 1} crashed here`));
      c.held = undefined;
    }
  }

  /** Lane `lane` is over (crashed, stopped, or the run ended): its connections are free, its reports dropped. */
  forget(lane: number): void {
    for (const c of this.ownedConns(lane)) c.owner = undefined;
    this.boxes.delete(lane);
    if (this.running === lane) this.running = undefined;
  }

  /** Between runs: nothing runs, nothing is owned but world connections, no report is kept. */
  clear(): void {
    this.running = undefined;
    this.boxes.clear();
    this.plainLog = undefined;
    for (const c of this.conns.values()) c.owner = undefined;
  }

  beforeStatement(info: ProxyConnectionInfo, statement: ProxyStatement): Promise<void> {
    const c = this.conn(info);
    const sql = statement.text;
    const write = !isTransactionControl(sql) && isWriteText(sql);
    const lane = c.owner ?? (info.pid === undefined ? undefined : this.owned.get(info.pid));
    const by = lane ?? this.running;
    if (by === undefined) {
      if (this.plainLog) {
        const params = paramText(statement.values);
        c.logged = { sql, write, ...(params ? { params } : {}) };
      }
      return Promise.resolve();
    }
    c.owner = by;
    return new Promise((go, fail) => {
      c.held = { sql, write, go, fail };
      this.post(by, { type: 'statement', sql, values: statement.values, write });
    });
  }

  afterStatement(
    info: ProxyConnectionInfo,
    statement: ProxyStatement,
    result: ProxyStatementResult,
  ): void {
    const c = this.conn(info);
    const open = result.status !== 'I';
    const write = c.held?.write ?? c.logged?.write ?? isWriteText(statement.text);
    const end = c.changes.end(settledOf(result), write, open);
    c.inTransaction = open ? statement.text : undefined;
    const out = c.out;
    c.out = undefined;
    out?.answer(end);
    const logged = c.logged;
    c.logged = undefined;
    if (logged && this.plainLog) this.plainLog.push({ ...logged, ...end });
    if (!open && !c.held) c.owner = undefined;
  }

  /** A statement cancelled to break a deadlock reaches the service as PostgreSQL's deadlock error. */
  replaceError(info: ProxyConnectionInfo, code: string): ErrorFields | undefined {
    const cycle = this.conns.get(info.connection)?.out?.deadlock;
    return cycle && code === QUERY_CANCELED ? deadlockFields(cycle) : undefined;
  }

  connectionClosed(info: ProxyConnectionInfo): void {
    const c = this.conn(info);
    c.open = false;
    c.owner = undefined;
    // Nothing will be sent from it any more: a statement held there is let go (the proxy drops it).
    c.held?.go();
    c.held = undefined;
    c.out?.answer({ result: '08006', durable: false });
    c.out = undefined;
    this.conns.delete(info.connection);
  }

  private conn(info: ProxyConnectionInfo): Conn {
    let c = this.conns.get(info.connection);
    if (!c) {
      c = { pid: info.pid, owner: undefined, open: true, changes: new TransactionChanges() };
      this.conns.set(info.connection, c);
    }
    c.pid ??= info.pid;
    return c;
  }

  private ownedConns(lane: number): Conn[] {
    return [...this.conns.values()].filter((c) => c.owner === lane);
  }

  private box(lane: number): Mailbox<GateReport> {
    let box = this.boxes.get(lane);
    if (!box) {
      box = new Mailbox();
      this.boxes.set(lane, box);
    }
    return box;
  }
}

/** The proxy's result as `TransactionChanges` reads a `pg` result: its command tags and row counts. */
function settledOf(result: ProxyStatementResult): { value: unknown } | { error: unknown } {
  if (result.error) return { error: result.error };
  const value = result.commands.map((tag) => {
    const words = tag.split(' ');
    const n = Number(words[words.length - 1]);
    return { command: words[0], rowCount: Number.isInteger(n) ? n : null } as pg.QueryResult;
  });
  return { value };
}
