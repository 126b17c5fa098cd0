/**
 * The main thread's watch over a concurrent run's parts: a call (or world event) that runs past
 * the call budget is a hang, and only terminating its worker stops it (a synchronous loop never
 * yields; a promise that never settles never ends its task). Each part marks on the board what
 * it is running and since when (`lane-board.ts`); the watch is one timer, due when the oldest
 * operation in flight would reach the budget, so a run that hangs nowhere costs one timer set
 * and cleared, whatever its length.
 */
import { type LaneBoardRef, runningOf } from './lane-board.ts';

/** Where the hang was found: the part running it, and its step and lane. */
export interface FoundHang {
  readonly part: number;
  readonly step: number;
  readonly lane: number;
}

/**
 * Watches `parts` parts on `board`; calls `onHang` once, for the first operation found running
 * `budgetMs` or longer, and stops watching. Returns the function that stops the watch.
 */
export function watchParts(
  board: LaneBoardRef,
  parts: number,
  budgetMs: number,
  onHang: (found: FoundHang) => void,
): () => void {
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const now = process.hrtime.bigint();
    let dueMs = budgetMs;
    for (let part = 0; part < parts; part++) {
      const running = runningOf(board, part);
      if (!running) continue;
      const elapsedMs = Number(now - running.sinceNs) / 1e6;
      if (elapsedMs >= budgetMs) {
        timer = undefined;
        onHang({ part, step: running.step, lane: running.lane });
        return;
      }
      dueMs = Math.min(dueMs, budgetMs - elapsedMs);
    }
    timer = setTimeout(check, Math.max(1, Math.ceil(dueMs)));
  };
  timer = setTimeout(check, budgetMs);
  return () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
}
