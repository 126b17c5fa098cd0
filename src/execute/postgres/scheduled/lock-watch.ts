/**
 * The scheduler's side connection to a run's database: it sees what the lanes' backends are doing
 * without being one of them. A granted statement is watched until it either completes or is seen
 * waiting on a lock (`pg_blocking_pids`), a condition on the server, never a fixed sleep; a crash
 * is a `pg_terminate_backend` followed by a wait until the backend is gone (so its locks are
 * released before anything else runs); a deadlock the scheduler found is broken by cancelling the
 * statement that closed it.
 *
 * When to ask changes how soon a wait is seen, never what is seen: a statement either answers or
 * waits until something else runs, and while it is watched nothing else of the run does. So the
 * server is asked first after a moment (most statements answer within it), then less and less
 * often, and a statement that can hardly be waiting (no other connection holds a transaction,
 * `ASK_QUIET_MS`) is given longer before the first question: each question is a round trip on
 * the server's CPU, which a loaded machine shares with the lanes it watches.
 */
import type pg from 'pg';
import { withinBudget } from '../postgres-events.ts';

/** A statement sent to the server whose answer may not have come yet. */
export interface InFlight {
  readonly sql: string;
  /** Set once the server answered. */
  settled?: { readonly value: pg.QueryResult } | { readonly error: unknown };
  /** Resolves (never rejects) once `settled` is set. */
  readonly answered: Promise<void>;
  /** The scheduler cancelled it to break a deadlock: its error becomes PostgreSQL's deadlock error. */
  deadlock?: readonly number[];
}

/** How long a statement is given to answer before the server is first asked about it, in ms. */
export const ASK_FIRST_MS = 1;

/**
 * The same, for a statement no other connection is likely to hold a lock against (none is in a
 * transaction or has a statement out, and no session-level lock was taken, `takesSessionLock`):
 * it waits only on a lock something else took unseen, so seeing that a little later costs little.
 */
export const ASK_QUIET_MS = 10;

/** The longest pause between two questions about one statement, in ms. */
const ASK_EVERY_MAX_MS = 16;

/** Whether `sql` may take a session-level advisory lock, which outlives its transaction. */
export function takesSessionLock(sql: string): boolean {
  return SESSION_LOCK.test(sql);
}
const SESSION_LOCK = /advisory_lock(_shared)?\s*\(/i;

/** Which backends each of some waits on (`pg_blocking_pids`), by pid. */
export type WaitsFor = ReadonlyMap<number, readonly number[]>;

/** Thrown when a statement neither completes nor blocks within the call budget. */
export class StatementHung extends Error {
  constructor(readonly limitMs: number) {
    super(`a statement neither completed nor waited on a lock within ${limitMs} ms`);
  }
}

/** Sends `sql` on `client` and tracks its answer. */
export function send(client: pg.Client, sql: string, values?: readonly unknown[]): InFlight {
  const flight: { -readonly [K in keyof InFlight]: InFlight[K] } = {
    sql,
    answered: Promise.resolve(),
  };
  flight.answered = client.query(sql, values as unknown[] | undefined).then(
    (value) => {
      flight.settled = { value };
    },
    (error: unknown) => {
      flight.settled = { error };
    },
  );
  return flight;
}

/** The side connection. `close()` when the run is over. */
export class LockWatch {
  private constructor(private readonly client: pg.Client) {}

  /** Watches from `client`, a connection the session keeps and no plugin code uses. */
  static over(client: pg.Client): LockWatch {
    return new LockWatch(client);
  }

  /**
   * Waits until `flight` (on backend `pid`) has an answer (`done`) or is seen waiting on a lock
   * (`blocked`). Throws `StatementHung` when neither happens within `limitMs`.
   */
  async settle(flight: InFlight, pid: number, limitMs: number): Promise<'done' | 'blocked'> {
    return (await this.settleSeen(flight, pid, limitMs)) === 'done' ? 'done' : 'blocked';
  }

  /**
   * `settle`, with the wait-for graph read in the same question once the statement is seen
   * waiting: `pid` and each of `others()` (the other statements out) with the backends it waits
   * on. The first question comes after `firstMs`.
   */
  async settleSeen(
    flight: InFlight,
    pid: number,
    limitMs: number,
    firstMs = ASK_FIRST_MS,
    others: () => readonly number[] = () => [],
  ): Promise<'done' | WaitsFor> {
    const deadline = performance.now() + limitMs;
    let pauseMs = firstMs;
    for (;;) {
      // Most statements answer at once: give the answer a moment before asking the server.
      await withinBudget(flight.answered, pauseMs);
      if (flight.settled) return 'done';
      const asked = this.waitsFor([pid, ...others().filter((o) => o !== pid)]);
      // An answer that came during the question wins (a waiting statement cannot also finish),
      // without waiting for the question's own answer.
      const graph = await Promise.race([asked, flight.answered]);
      if (flight.settled) {
        asked.catch(() => {});
        return 'done';
      }
      if (graph && (graph.get(pid)?.length ?? 0) > 0) return graph;
      if (performance.now() > deadline) throw new StatementHung(limitMs);
      pauseMs = Math.min(2 * pauseMs, ASK_EVERY_MAX_MS);
    }
  }

  /** For each of `pids`, the backends it waits on. */
  async waitsFor(pids: readonly number[]): Promise<Map<number, number[]>> {
    const { rows } = await this.client.query<{ pid: number; blockers: number[] }>(
      'SELECT pid, pg_blocking_pids(pid) AS blockers FROM unnest($1::int[]) AS pid',
      [pids],
    );
    return new Map(rows.map((r) => [r.pid, r.blockers]));
  }

  /** For each of `pids` that waits on a lock, the kinds of lock it waits on (`pg_locks.locktype`). */
  async waitingKinds(pids: readonly number[]): Promise<Map<number, string[]>> {
    const { rows } = await this.client.query<{ pid: number; kinds: string[] }>(
      'SELECT pid, array_agg(locktype) AS kinds FROM pg_locks WHERE NOT granted AND pid = ANY($1::int[]) GROUP BY pid',
      [pids],
    );
    return new Map(rows.map((r) => [r.pid, r.kinds]));
  }

  /** Cancels the statement backend `pid` is running (it fails; its transaction is aborted). */
  async cancel(pid: number): Promise<void> {
    await this.client.query('SELECT pg_cancel_backend($1)', [pid]);
  }

  /**
   * Ends backend `pid` as a crash does (its transaction rolls back, its locks go) and waits until
   * the server has let it go (no session, no lock left), so nothing after the crash meets its locks. Bounded by `limitMs`.
   */
  async terminate(pid: number, limitMs: number): Promise<void> {
    await this.client.query('SELECT pg_terminate_backend($1)', [pid]);
    const deadline = performance.now() + limitMs;
    for (;;) {
      const { rows } = await this.client.query(
        'SELECT 1 FROM pg_stat_activity WHERE pid = $1 UNION ALL SELECT 1 FROM pg_locks WHERE pid = $1',
        [pid],
      );
      if (rows.length === 0) return;
      if (performance.now() > deadline) throw new StatementHung(limitMs);
      await pause(1);
    }
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
