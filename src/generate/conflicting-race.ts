/**
 * A race move made concrete, preferring a group the model says conflicts (`group-conflicts.ts`):
 * when the drawn group races over nothing the contract can tell apart (every call refused
 * alike, the row gone, two calls on different rows), the same shape is tried again with the
 * clients and the target moved on a step, a few times, and the first group that conflicts is
 * kept; else the drawn one. `disjoint` groups are kept as drawn: calls on different rows are
 * what they are for. Pure: a discarded attempt's request ids are taken back.
 */
import type { Event } from '../model/events.ts';
import type { ModelState } from '../model/state.ts';
import { type ClientKnowledge, markKnowledge, rollBackKnowledge } from './client-knowledge.ts';
import { groupConflicts } from './group-conflicts.ts';
import type { Move } from './moves.ts';
import { type RequestMaker, raceEvents } from './race-events.ts';

/** Other groups tried after the drawn one. */
const RETRIES = 3;

/** What the preference needs of the resolver besides making requests. */
export interface GroupMaker extends RequestMaker {
  readonly modelState: ModelState;
  /** Clients whose principal is in no excluded class, the ones a retry moves on to. */
  readonly clientsAllowed: readonly number[];
  /** What each client knows; an attempt's minted ids are taken back from it. */
  readonly clients: readonly ClientKnowledge[];
}

/**
 * A race's events, and whether the model says they conflict: undefined for a `disjoint` group,
 * which is kept without asking.
 */
export interface RaceGroup {
  readonly events: Event[];
  readonly conflicts: boolean | undefined;
}

/** The events of `move`'s group, or of a conflicting neighbour of it. */
export function conflictingRace(r: GroupMaker, move: Extract<Move, { kind: 'race' }>): RaceGroup {
  const mark = markKnowledge(r.clients);
  const drawn = raceEvents(r, move);
  if (move.shape === 'disjoint') return { events: drawn, conflicts: undefined };
  if (groupConflicts(r.modelState, drawn)) return { events: drawn, conflicts: true };
  const allowed = r.clientsAllowed;
  for (let k = 1; k <= RETRIES && allowed.length > 0; k++) {
    rollBackKnowledge(r.clients, mark);
    const clients = move.clients.map(
      (c) => allowed[(Math.max(0, allowed.indexOf(c)) + k) % allowed.length] as number,
    );
    const events = raceEvents(r, { ...move, clients, target: move.target + k });
    if (groupConflicts(r.modelState, events)) return { events, conflicts: true };
  }
  rollBackKnowledge(r.clients, mark);
  // Drawn again from the same knowledge: the drawn group, which did not conflict.
  return { events: raceEvents(r, move), conflicts: false };
}
