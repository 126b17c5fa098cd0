/**
 * The statements one step's lanes have on the server, and how each ends up: answered, or seen
 * waiting on a lock (`lock-watch.ts`). A lane seen waiting that closes a wait-for cycle among the
 * lanes is the deadlock's victim (`deadlock.ts`): its statement is cancelled, and its answer is
 * PostgreSQL's deadlock error. Every wait-for graph seen goes to the step's `ServerOrder`, which
 * tells when the server, not the schedule, chose which waiting lane went first.
 */
import type { StatementEnd } from '../../schedule/statement-end.ts';
import { cycleThrough, deadlockError } from './deadlock.ts';
import type { Answer, LaneConnection } from './lane-connection.ts';
import {
  ASK_FIRST_MS,
  ASK_QUIET_MS,
  type InFlight,
  type LockWatch,
  send,
  takesSessionLock,
} from './lock-watch.ts';
import { type QueueView, ServerOrder } from './server-order.ts';
import { TransactionChanges } from './transaction-changes.ts';

/** One lane's connection in the step, and the statement it has on the server, if any. */
export interface LaneFlight {
  readonly conn: LaneConnection;
  readonly changes: TransactionChanges;
  flight?: InFlight;
  /** Whether the statement in flight writes (a fault counts as a write). */
  write: boolean;
  /** The bound values of the statement the lane is parked at. */
  values?: readonly unknown[];
}

/** The lanes' flights for one step. */
export class LaneFlights implements QueueView {
  private readonly lanes = new Map<number, LaneFlight>();
  /** Which lanes queue behind which, and whether the server chose an order (`server-order.ts`). */
  readonly order: ServerOrder;

  constructor(
    private readonly watch: LockWatch,
    private readonly limitMs: number,
    /** The run's record of whether a statement may have taken a session-level lock (`takesSessionLock`). */
    private readonly sessionLocks: { taken: boolean },
    /** The run's record of whether the server chose an order (`ServerOrder`). */
    serverOrdered: { seen: boolean },
  ) {
    this.order = new ServerOrder(watch, this, serverOrdered);
  }

  /** Lane `lane` runs on `conn` in this step. */
  add(lane: number, conn: LaneConnection): LaneFlight {
    const carried: LaneFlight = { conn, changes: new TransactionChanges(), write: false };
    this.lanes.set(lane, carried);
    return carried;
  }

  get(lane: number): LaneFlight | undefined {
    return this.lanes.get(lane);
  }

  /** Sends the lane's statement to the server. */
  send(lane: number, sql: string, values: readonly unknown[] | undefined, write: boolean): void {
    const c = this.lanes.get(lane) as LaneFlight;
    c.write = write;
    if (!this.sessionLocks.taken && takesSessionLock(sql)) this.sessionLocks.taken = true;
    c.flight = send(c.conn.client, sql, values);
  }

  /** The step's lanes (`QueueView`); each holds its locks through its one backend. */
  laneIds(): Iterable<number> {
    return this.lanes.keys();
  }

  waitingPid(lane: number): number | undefined {
    return this.waiting(lane) ? this.lanes.get(lane)?.conn.pid : undefined;
  }

  holderPids(lane: number): readonly number[] {
    const c = this.lanes.get(lane);
    return c ? [c.conn.pid] : [];
  }

  /** Whether the lane has a statement on the server with no answer yet. */
  waiting(lane: number): boolean {
    const flight = this.lanes.get(lane)?.flight;
    return flight !== undefined && flight.settled === undefined;
  }

  /**
   * Waits until the lane's statement has an answer (`done`) or is seen waiting on a lock
   * (`blocked`); a lane whose wait closes a cycle gets its deadlock answer (`done`). Throws
   * `StatementHung` past the budget.
   */
  async settle(lane: number): Promise<'done' | 'blocked'> {
    const c = this.lanes.get(lane) as LaneFlight;
    const flight = c.flight as InFlight;
    const live = [...this.lanes.values()].filter((k) => !k.conn.crashed);
    const out = () => live.filter((k) => k.flight && !k.flight.settled).map((k) => k.conn.pid);
    // Only another lane's transaction or statement out, or a session-level lock, can hold a lock
    // against it: every other connection of the run is idle and out of a transaction.
    const contended =
      this.sessionLocks.taken ||
      live.some((k) => k !== c && (k.conn.inTransaction || (k.flight && !k.flight.settled)));
    const seen = await this.watch.settleSeen(
      flight,
      c.conn.pid,
      this.limitMs,
      contended ? ASK_FIRST_MS : ASK_QUIET_MS,
      out,
    );
    if (seen === 'done') {
      this.order.answered(c.conn.pid);
      return 'done';
    }
    this.order.saw(seen);
    const cycle = cycleThrough(c.conn.pid, seen, new Set(live.map((k) => k.conn.pid)));
    if (!cycle) return 'blocked';
    flight.deadlock = cycle;
    await this.watch.cancel(c.conn.pid);
    await flight.answered;
    this.order.answered(c.conn.pid);
    return 'done';
  }

  /** Takes the lane's answered statement: what the plugin gets, and how it ended for the trace. */
  take(lane: number): { readonly answer: Answer; readonly end: StatementEnd } {
    const c = this.lanes.get(lane) as LaneFlight;
    const flight = c.flight as InFlight;
    c.flight = undefined;
    const settled = flight.settled as NonNullable<InFlight['settled']>;
    const answer: Answer =
      'error' in settled && flight.deadlock ? { error: deadlockError(flight.deadlock) } : settled;
    return { answer, end: c.changes.end(answer, c.write, c.conn.inTransaction) };
  }
}
