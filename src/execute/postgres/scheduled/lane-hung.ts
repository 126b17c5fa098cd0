/**
 * A lane (or a plain step) that did not get to its next point within the call budget: its
 * statement neither answered nor waited on a lock, or its plugin code never sent another or
 * returned. The run stops there and reports the hang, as every mode does.
 */
import type { Event } from '../../../model/events.ts';
import type { Hang, HangKind } from '../../../types/verdict.ts';
import type { LaneState } from '../../schedule/lane-state.ts';

/** Thrown inside a scheduled PostgreSQL run; the run turns it into its `hang`. */
export class LaneHung extends Error {
  constructor(
    readonly step: number,
    readonly lane: number,
    readonly limitMs: number,
    readonly event?: Event,
    /** `locked` when it waits on a lock an idle connection of the run holds (`HangKind`). */
    readonly how: Extract<HangKind, 'unsettled' | 'locked'> = 'unsettled',
  ) {
    super(`step ${step + 1} lane ${lane + 1} did not reach its next point within ${limitMs} ms`);
    this.name = 'LaneHung';
  }

  /** The hang as a run reports it. */
  get hang(): Hang {
    return {
      step: this.step,
      lane: this.lane,
      ...(this.event ? { event: this.event } : {}),
      limitMs: this.limitMs,
      how: this.how,
    };
  }
}

/** `promise`, or `LaneHung` thrown when it has not settled within `limitMs`. */
export async function within<T>(promise: Promise<T>, hung: () => LaneHung): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    const error = hung();
    timer = setTimeout(() => reject(error), error.limitMs);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A stall on PostgreSQL (every live lane waits on a lock): the trace entry's text, and the hang
 * that ends the run, since PostgreSQL waits for ever and nothing running will release the locks.
 */
export function lockedStall(
  step: number,
  live: readonly LaneState[],
  limitMs: number,
): { sql: string; ends: LaneHung } {
  const first = live[0];
  return {
    sql: `lanes ${live.map((s) => s.lane + 1).join(', ')} all wait on locks no running lane holds`,
    ends: new LaneHung(step, first?.lane ?? 0, limitMs, first?.event, 'locked'),
  };
}
