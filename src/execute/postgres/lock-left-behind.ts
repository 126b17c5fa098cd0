/**
 * Waiting on plugin code that may wait on a lock left behind. A handler that takes a session-level
 * lock (`pg_advisory_lock`) and returns without releasing it leaves the lock with its connection's
 * backend: COMMIT and ROLLBACK do not free it, and that connection runs nothing more until the
 * harness gives it another call. A call on another connection that asks for the lock then waits
 * for ever. So while a call runs, the runner asks the server now and then whether its backend
 * waits on a lock that a connection of the run holds while running nothing; if so, the call is a
 * hang at once (`locked`), found from the server's lock table rather than from a clock, and the
 * call budget bounds everything else.
 */
import type { PgConnection } from '../../handlers/postgres/plugin.ts';
import type { Budgeted } from './postgres-events.ts';

/** How long a call runs before the server is first asked about its locks, and then between asks, in ms. */
export const LOCK_CHECK_MS = 50;

/** What came of waiting: the value, or no value, within the budget or on a lock left behind. */
export type Waited<T> = Budgeted<T> | { readonly settled: false; readonly locked: true };

/**
 * `work`'s value; `{settled: false, locked: true}` as soon as `leftBehind()` says it waits on a
 * lock left behind; `{settled: false}` after `limitMs`. A rejection of `work` rejects.
 */
export async function untilSettled<T>(
  work: Promise<T>,
  limitMs: number,
  leftBehind: () => Promise<boolean>,
): Promise<Waited<T>> {
  const deadline = performance.now() + limitMs;
  let result: { readonly value: T } | undefined;
  const done = work.then((value) => {
    result = { value };
  });
  // Stopped on a lock, the work is ended under it and may fail after this returns: no one waits.
  done.catch(() => {});
  for (;;) {
    const left = deadline - performance.now();
    if (left <= 0) return { settled: false };
    let timer: NodeJS.Timeout | undefined;
    const pause = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.min(LOCK_CHECK_MS, left));
    });
    try {
      await Promise.race([done, pause]);
    } finally {
      clearTimeout(timer);
    }
    if (result) return { settled: true, value: result.value };
    const locked = await leftBehind();
    // An answer that came during the question wins: a waiting statement cannot also finish.
    if (result) return { settled: true, value: (result as { value: T }).value };
    if (locked) return { settled: false, locked: true };
  }
}

/** Whether `waited` ended on a lock left behind. */
export function isLocked<T>(waited: Waited<T>): boolean {
  return !waited.settled && 'locked' in waited;
}

/**
 * Whether backend `pid` waits on a lock that one of `idle()`'s backends holds (asked on `watch`,
 * a connection that only watches; `idle()` read once the server answered).
 */
export async function blockedByIdle(
  watch: PgConnection,
  pid: number,
  idle: () => ReadonlySet<number | undefined>,
): Promise<boolean> {
  const { rows } = await watch.query<{ blockers: number[] }>(
    'SELECT pg_blocking_pids($1) AS blockers',
    [pid],
  );
  const blockers = rows[0]?.blockers ?? [];
  if (blockers.length === 0) return false;
  const holders = idle();
  return blockers.some((b) => holders.has(b));
}
