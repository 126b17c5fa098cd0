/**
 * What a concurrent run records and the linearizability checker consumes: one entry per call or
 * world event, with the interval in which it took effect and the outcome the client saw.
 * Plain data, so a history can be saved next to a counterexample and checked again later.
 */
import type { Event } from './events.ts';
import type { Observed } from './outcome.ts';

/**
 * One operation of a concurrent run.
 *
 * Real-time order: entry A precedes entry B when `A.completedAt < B.invokedAt`; entries whose
 * intervals touch or overlap are concurrent and may take effect in either order.
 *
 * How the checker reads the optional fields:
 * - a call with neither `completedAt` nor `observed` (a lost response, a crash) may take effect
 *   at any point after `invokedAt`, or not at all;
 * - any other entry must take effect exactly once, inside its interval (no `completedAt` means the
 *   interval never closes); world events always take effect;
 * - a call with `completedAt` but no `observed` took effect with whatever outcome the model gives.
 */
export interface HistoryEntry {
  /** Unique; by convention the entry's index in the history. */
  readonly id: number;
  /** Who issued it: the connection or worker for a call, e.g. -1 for the harness's world events. */
  readonly client: number;
  /** A call (its `client` field picks the principal) or a world event. */
  readonly event: Event;
  /** Monotonic clock reading when the operation was issued (`performance.now()` or a tick). */
  readonly invokedAt: number;
  /** Same clock when the reply arrived; undefined when completion is unknown. Never < `invokedAt`. */
  readonly completedAt?: number;
  /** The outcome the client saw; undefined when unknown. World events have none. */
  readonly observed?: Observed;
}

/** A recorded concurrent run, in any order (the checker sorts by time itself). */
export type History = readonly HistoryEntry[];

/**
 * Whether an entry may be left out of a linearisation: a call whose completion and outcome are
 * both unknown (it may have crashed before committing).
 */
export function isDroppable(entry: HistoryEntry): boolean {
  return (
    entry.event.kind === 'call' && entry.completedAt === undefined && entry.observed === undefined
  );
}
