/**
 * A check's first phase: run the planned cases in order, stopping at the first failure. The
 * cases are exactly those fast-check's own loop would draw (`fc.sample` with the check's seed,
 * `path` resuming at an index; a test holds the two equal), and the failure found is handed to
 * fast-check by its index for shrinking (`check-handler.ts`).
 *
 * Why not fast-check's loop here: it awaits between runs, so each run would be a watched stretch
 * of its own, and arming the call budget's watchdog once per run (a thread started and joined,
 * `execute/runtime/call-watch.ts`) doubled sequential mode's time, measured. Here the runs are tasks
 * strung together, so a synchronous handler's runs share one stretch until the event loop's turn
 * (every `EXPLORE_TURN_MS`, for Ctrl-C) or the watchdog's slack comes round.
 */
import fc from 'fast-check';
import type { GeneratedCase } from '../execute/mode-runner.ts';
import { CallHung, stretchRoom } from '../execute/runtime/call-watch.ts';
import { interruptTurn } from '../execute/runtime/interrupt.ts';
import type { Task } from '../execute/runtime/task.ts';
import type { JudgedAttempt, JudgedRun, JudgedRunner } from './judged-runner.ts';

/**
 * How often exploring lets the event loop turn (to see Ctrl-C), in ms. Each turn ends a watched
 * stretch, and the next one arms a new watchdog, whose thread, on a loaded machine, took up to
 * about 10 ms of wall time to start and join (CPU time unchanged): at 25 ms turns sequential mode
 * ran 20-30% slower in wall time, at 200 ms it is a few percent; a signal waits at most this long.
 */
export const EXPLORE_TURN_MS = 200;

/** What to explore. */
export interface ExploreOptions {
  readonly seed: number;
  /** Cases to run: indices `from` (default 0) up to `runs - 1`. */
  readonly runs: number;
  /** The index to start at (all-findings mode goes on after a failure from the next one). */
  readonly from?: number;
  /** Stop starting runs at this `performance.now()` (the time limit). */
  readonly deadline?: number;
  /** Called after every run, failing ones included. */
  readonly onRun: (c: GeneratedCase, run: JudgedRun) => void;
}

/** How exploration ended: every run held, the time limit came, or a run failed (its index given). */
export type Explored =
  | { readonly kind: 'held' }
  | { readonly kind: 'timedOut' }
  | {
      readonly kind: 'failed';
      readonly index: number;
      readonly case: GeneratedCase;
      readonly run: JudgedRun;
    };

/** Runs the cases of `arbitrary` in fast-check's order until one fails. */
export async function explore(
  runner: JudgedRunner,
  arbitrary: fc.Arbitrary<GeneratedCase>,
  o: ExploreOptions,
): Promise<Explored> {
  let index = o.from ?? 0;
  let current: { attempt: JudgedAttempt; case: GeneratedCase } | undefined;

  function* runAll(): Task<Explored> {
    while (index < o.runs) {
      // Drawn inside the task, so the batches of a check share a stretch (one watchdog armed,
      // not one per batch) when it has room left for the drawing.
      yield* stretchRoom(BATCH_ROOM_MS);
      const batch = fc.sample(arbitrary, {
        seed: o.seed,
        path: String(index),
        numRuns: batchSize(index, o.runs - index),
      });
      const ended = yield* runBatch(batch);
      if (ended) return ended;
    }
    return { kind: 'held' };
  }

  function* runBatch(batch: readonly GeneratedCase[]): Task<Explored | undefined> {
    for (const c of batch) {
      if (o.deadline !== undefined && performance.now() >= o.deadline) return { kind: 'timedOut' };
      yield* interruptTurn(EXPLORE_TURN_MS);
      const attempt = runner.attempt(c.steps, c.replay);
      current = { attempt, case: c };
      let run: JudgedRun;
      try {
        run = yield* attempt.task;
      } catch (thrown) {
        // A hang is closed after `afterHang`, below; anything else ends here.
        if (thrown instanceof CallHung) throw thrown;
        current = undefined;
        attempt.close();
        throw thrown;
      }
      current = undefined;
      attempt.close();
      o.onRun(c, run);
      if (run.verdict.verdict === 'failed') return { kind: 'failed', index, case: c, run };
      index++;
    }
    return undefined;
  }

  try {
    return await runner.drive(runAll());
  } catch (thrown) {
    // The watchdog may have stopped the run mid-way (its `finally` blocks skipped): the attempt
    // recorded in `current` is the one that hung.
    const hung = current;
    current = undefined;
    if (!(thrown instanceof CallHung) || !hung) {
      hung?.attempt.close();
      throw thrown;
    }
    try {
      const run = await hung.attempt.afterHang(thrown.hang);
      o.onRun(hung.case, run);
      return { kind: 'failed', index, case: hung.case, run };
    } finally {
      hung.attempt.close();
    }
  }
}

/**
 * The room a watched stretch must have left to draw a batch in it, in ms: drawing the largest
 * batch takes a fraction of this; with less left, the batch starts a fresh stretch.
 */
const BATCH_ROOM_MS = 1_000;

/**
 * Cases drawn at once. Drawing from index `i` first walks fast-check's generator past the `i`
 * before (about 0.3 µs each, measured), so batches grow with the index: that walk stays near 2%
 * of a run's cost, and a batch at most a few thousand cases in memory.
 */
function batchSize(index: number, left: number): number {
  return Math.min(left, Math.max(64, Math.min(5_000, Math.floor(index / 50))));
}
