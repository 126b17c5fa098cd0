/**
 * The statements one step's lanes have on the server, and how each ends up: answered, or seen
 * waiting on a lock (`lock-watch.ts`). A lane seen waiting that closes a wait-for cycle among the
 * lanes is the deadlock's victim (`deadlock.ts`): its statement is cancelled, and its answer is
 * PostgreSQL's deadlock error.
 *
 * The wait-for graph each question brings back is kept, as last seen, so the scheduler can tell
 * which lanes queue behind a lane before it lets that lane go on (`server-order.ts`).
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
export class LaneFlights {
  private readonly lanes = new Map<number, LaneFlight>();
  /** The backends each waiting statement's backend was last seen waiting on, by pid. */
  private readonly seenWaits = new Map<number, readonly number[]>();

  constructor(
    private readonly watch: LockWatch,
    private readonly limitMs: number,
    /** The run's record of whether a statement may have taken a session-level lock (`takesSessionLock`). */
    private readonly sessionLocks: { taken: boolean },
  ) {}

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
      this.seenWaits.delete(c.conn.pid);
      return 'done';
    }
    for (const [pid, blockers] of seen)
      if (blockers.length > 0) this.seenWaits.set(pid, blockers);
      else this.seenWaits.delete(pid);
    const cycle = cycleThrough(c.conn.pid, seen, new Set(live.map((k) => k.conn.pid)));
    if (!cycle) return 'blocked';
    flight.deadlock = cycle;
    await this.watch.cancel(c.conn.pid);
    await flight.answered;
    this.seenWaits.delete(c.conn.pid);
    return 'done';
  }

  /**
   * The lanes whose statement is still out and was last seen waiting on lane `lane`'s backend,
   * directly or behind another lane that waits on it (PostgreSQL queues a second waiter for a
   * row behind the first, on the row's tuple lock).
   */
  waitersOn(lane: number): number[] {
    const holder = this.lanes.get(lane)?.conn.pid;
    if (holder === undefined) return [];
    const reaches = (pid: number, seen: Set<number>): boolean =>
      (this.seenWaits.get(pid) ?? []).some(
        (b) => b === holder || (!seen.has(b) && reaches(b, seen.add(b))),
      );
    return [...this.lanes].flatMap(([l, k]) =>
      l !== lane && this.waiting(l) && reaches(k.conn.pid, new Set([k.conn.pid])) ? [l] : [],
    );
  }

  /** Each lane whose waiters (`waitersOn`) may race once it lets go (`mayRace`), with those lanes. */
  async queues(): Promise<Map<number, readonly number[]>> {
    const queues = new Map<number, readonly number[]>();
    for (const lane of this.lanes.keys()) {
      const waiters = this.waitersOn(lane);
      if (waiters.length >= 2 && (await this.mayRace(waiters))) queues.set(lane, waiters);
    }
    return queues;
  }

  /**
   * Whether lanes `waiters`, queued behind one lane, may race for what it lets go: two or more of
   * them wait on something other than an advisory lock. PostgreSQL's lock manager grants a
   * released advisory lock to its waiters one at a time in the order they queued, which the
   * schedule decided, and a statement waiting for one does nothing else; the waiters for a row
   * wait on its holder's transaction (or behind one another on the row), all wake when it ends,
   * and race for the row. A waiter whose wait the server no longer shows counts as racing.
   */
  async mayRace(waiters: readonly number[]): Promise<boolean> {
    const pids = waiters.map((l) => this.lanes.get(l)?.conn.pid ?? -1);
    const kinds = await this.watch.waitingKinds(pids);
    const racing = pids.filter((pid) => (kinds.get(pid) ?? ['gone']).some((k) => k !== 'advisory'));
    return racing.length >= 2;
  }

  /**
   * Whether a lane of `queues` (as `queues()` gave them before a grant) let one of its waiters go:
   * it released what they queued for, and the server woke them.
   */
  released(queues: ReadonlyMap<number, readonly number[]>): boolean {
    for (const [lane, waiters] of queues) {
      const still = new Set(this.waitersOn(lane));
      if (waiters.some((w) => !still.has(w))) return true;
    }
    return false;
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
