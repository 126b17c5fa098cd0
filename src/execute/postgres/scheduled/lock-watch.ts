/**
 * The scheduler's side connection to a run's database: it sees what the lanes' backends are doing
 * without being one of them. A granted statement is watched until it either completes or is seen
 * waiting on a lock (`pg_blocking_pids`), a condition on the server, never a fixed sleep; a crash
 * is a `pg_terminate_backend` followed by a wait until the backend is gone (so its locks are
 * released before anything else runs); a deadlock the scheduler found is broken by cancelling the
 * statement that closed it.
 */
import type pg from 'pg';

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
    const deadline = performance.now() + limitMs;
    for (;;) {
      // Most statements answer at once: give the answer a moment before asking the server.
      await Promise.race([flight.answered, pause(1)]);
      if (flight.settled) return 'done';
      const blocked = await this.isBlocked(pid);
      // An answer that came during the question wins: a waiting statement cannot also finish.
      if (flight.settled) return 'done';
      if (blocked) return 'blocked';
      if (performance.now() > deadline) throw new StatementHung(limitMs);
    }
  }

  /** Whether backend `pid` waits on a lock some other backend holds or asks for first. */
  async isBlocked(pid: number): Promise<boolean> {
    const { rows } = await this.client.query<{ n: number }>(
      'SELECT cardinality(pg_blocking_pids($1)) AS n',
      [pid],
    );
    return (rows[0]?.n ?? 0) > 0;
  }

  /** For each of `pids`, the backends it waits on. */
  async waitsFor(pids: readonly number[]): Promise<Map<number, number[]>> {
    const { rows } = await this.client.query<{ pid: number; blockers: number[] }>(
      'SELECT pid, pg_blocking_pids(pid) AS blockers FROM unnest($1::int[]) AS pid',
      [pids],
    );
    return new Map(rows.map((r) => [r.pid, r.blockers]));
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
