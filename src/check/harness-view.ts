/**
 * The history as the harness saw it, not as the clients did: every lost response completed, at
 * the time its call really returned, with the outcome the handler really gave.
 *
 * The clients' view leaves a lost response open-ended (it may have landed anywhere later, or
 * not at all), which is what the contract judges, but it makes the search slow: a lost call of
 * an operation without an expected version never goes stale, so the search may try it at every
 * dead end of a long history. The harness's view has no such calls. A linearisation of it is
 * also one of the clients' view (each lost call placed inside its real interval, its hidden
 * outcome ignored), so an `ok` found here is an `ok` there; anything else says nothing, and the
 * clients' view is searched as before.
 */
import type { HistoryEntry } from '../model/history.ts';
import type { Place } from '../types/execution.ts';
import type { Trace } from '../types/trace.ts';

/** What the view is made from: a concurrent run record's history, places, trace and returns. */
export interface RecordedRun {
  readonly history: readonly HistoryEntry[];
  readonly places: readonly Place[];
  readonly trace: Pick<Trace, 'observations'>;
  /** By entry id: when a lost response's call really returned. */
  readonly returnedAt?: readonly (number | undefined)[];
}

/** The harness's view of `run`, or undefined when it holds no lost response it can complete. */
export function harnessView(run: RecordedRun): readonly HistoryEntry[] | undefined {
  const returnedAt = run.returnedAt;
  if (!returnedAt) return undefined;
  const real = new Map(run.trace.observations.map((o) => [`${o.step}/${o.lane}`, o.observed]));
  let completed = 0;
  const view = run.history.map((entry) => {
    const returned = returnedAt[entry.id];
    const place = run.places[entry.id];
    if (
      entry.event.kind !== 'call' ||
      entry.event.delivery !== 'lostResponse' ||
      entry.completedAt !== undefined ||
      returned === undefined ||
      place === undefined
    ) {
      return entry;
    }
    const observed = real.get(`${place.step}/${place.lane}`);
    if (observed === undefined) return entry;
    completed++;
    return { ...entry, completedAt: returned, observed };
  });
  return completed > 0 ? view : undefined;
}
