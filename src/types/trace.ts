/**
 * What an execution records for the checkers: the outcome of every call, where it stood in the
 * sequence, and the database as the plugin saw it at the end. Plain data.
 */
import type { CallEvent } from '../model/events.ts';
import type { Observed } from '../model/outcome.ts';
import type { Snapshot } from '../model/world.ts';

/** One call and what the handler answered. */
export interface Observation {
  readonly step: number;
  readonly lane: number;
  readonly event: CallEvent;
  readonly observed: Observed;
}

/** Everything one run of a sequence produced. */
export interface Trace {
  readonly observations: readonly Observation[];
  readonly snapshot: Snapshot;
}
