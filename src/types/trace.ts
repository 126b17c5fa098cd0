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

/**
 * What the handler answered at one call, where the call stood: an observation without its
 * request (the case's steps hold that). What a report shows as a call's answer.
 */
export type CallAnswer = Pick<Observation, 'step' | 'lane' | 'observed'>;

/** The answers of `observations`, as a counterexample keeps them. */
export function answersOf(observations: readonly Observation[]): CallAnswer[] {
  return observations.map(({ step, lane, observed }) => ({ step, lane, observed }));
}

/** Everything one run of a sequence produced. */
export interface Trace {
  readonly observations: readonly Observation[];
  readonly snapshot: Snapshot;
}
