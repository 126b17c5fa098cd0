/**
 * What a concurrent run records as it goes, on either engine: the history, each entry's place,
 * when a lost response's call really returned, and the observations; and the execution it
 * comes to once the final snapshot is read.
 */
import type { HistoryEntry } from '../model/history.ts';
import type { Snapshot } from '../model/world.ts';
import type { ConcurrentExecution, Place } from '../types/execution.ts';
import type { Observation } from '../types/trace.ts';
import type { Hang } from '../types/verdict.ts';

/** A concurrent run's record while it runs; `execution()` once the snapshot is read. */
export class ConcurrentRecord {
  readonly history: HistoryEntry[] = [];
  readonly places: Place[] = [];
  readonly returnedAt: (number | undefined)[] = [];
  readonly observations: Observation[] = [];

  /** The run as data: what was recorded, the final `snapshot`, and the hang that ended it, if any. */
  execution(snapshot: Snapshot, hang?: Hang): ConcurrentExecution {
    const { observations, history, places, returnedAt } = this;
    return {
      mode: 'concurrent',
      trace: { observations, snapshot },
      history,
      places,
      returnedAt,
      ...(hang ? { hang } : {}),
    };
  }
}
