/**
 * Flattens a sequence of steps into the events it contains, each tagged with where it stands:
 * the step number and, inside a concurrent group, the lane. Sequential execution and the model
 * both walk this list, so their outcomes line up one to one.
 */
import type { Event, Step } from './events.ts';

/** One event and its place in the sequence. */
export interface PlacedEvent {
  readonly event: Event;
  /** Index of the step in the sequence. */
  readonly step: number;
  /** Position inside a concurrent group; 0 for a plain step. */
  readonly lane: number;
}

/** All events of `steps`, groups expanded in lane order. */
export function flatten(steps: readonly Step[]): PlacedEvent[] {
  const placed: PlacedEvent[] = [];
  steps.forEach((s, step) => {
    if (s.kind !== 'concurrent') placed.push({ event: s, step, lane: 0 });
    else for (const [lane, event] of s.events.entries()) placed.push({ event, step, lane });
  });
  return placed;
}
