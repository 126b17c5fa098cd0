/**
 * The model's walk over a generated sequence, kept from generation for the judge. The resolver
 * (`resolve.ts`) steps the model over every event it emits, in the order sequential execution
 * and `check/check-run.ts` walk them (`flatten`: groups in lane order), from `initialState` of
 * the fixture it resolves for; the judge stepped it all again, a third of what judging a
 * sequential run cost. Pure data, held weakly by the steps array itself, so a shrink (a new
 * array, resolved again) gets its own walk and a case read from a file has none and is stepped
 * as before. The summary's operation coverage reads it too.
 */
import type { Event, Step } from '../model/events.ts';
import type { OperationSpec } from '../model/operation.ts';
import { type FixtureWithPolicy, initialState, type ModelState } from '../model/state.ts';
import { step, type Transition } from '../model/step.ts';
import type { Fixture } from '../model/world.ts';

/** What the model gave for each event of a sequence, and where it ended. */
export interface ModelWalk {
  /** The fixture the walk started from (`initialState(fixture, spec)`). */
  readonly fixture: Fixture;
  /** Each event's outcome, in `flatten` order; undefined for an event with none. */
  readonly outcomes: readonly Transition['outcome'][];
  /**
   * The model's state before each event, in `flatten` order: what the operation coverage of a
   * run (`report/operation-coverage.ts`) classes each call by, read here rather than stepped again.
   */
  readonly before: readonly ModelState[];
  /**
   * For each step, by index, whether it is a concurrent group the model says conflicts
   * (`group-conflicts.ts`), where generation asked; undefined where it did not (a single event,
   * a `disjoint` group).
   */
  readonly conflicts: readonly (boolean | undefined)[];
  /** The model's state after the last event. */
  readonly state: ModelState;
}

const walks = new WeakMap<readonly Step[], ModelWalk>();

/** Keeps `walk` as the model's walk over `steps` (called by the resolver, once per sequence). */
export function keepModelWalk(steps: readonly Step[], walk: ModelWalk): void {
  walks.set(steps, walk);
}

/**
 * The walk generation made over `steps` from `fixture` under `spec`, or undefined: steps not
 * generated here (a saved case, a test's literal), or generated for another fixture object or
 * operation.
 */
export function modelWalkOf(
  steps: readonly Step[],
  fixture: Fixture,
  spec: OperationSpec,
): ModelWalk | undefined {
  const walk = walks.get(steps);
  return walk?.fixture === fixture && walk.state.operation === spec ? walk : undefined;
}

/**
 * Records a walk while the model is stepped over a sequence, event by event (`step`), each step
 * of the sequence marked once its events are in (`kept`).
 */
export class WalkRecorder {
  private readonly outcomes: Transition['outcome'][] = [];
  private readonly before: ModelState[] = [];
  private readonly conflicts: (boolean | undefined)[] = [];

  /** `state` stepped over `event`, recorded. */
  step(state: ModelState, event: Event): Transition {
    this.before.push(state);
    const t = step(state, event);
    this.outcomes.push(t.outcome);
    return t;
  }

  /** A step of the sequence is complete: whether it is a group that conflicts, if that was asked. */
  kept(conflicts?: boolean): void {
    this.conflicts.push(conflicts);
  }

  /** The walk recorded, from `fixture`, ending in `state`. */
  walk(fixture: Fixture, state: ModelState): ModelWalk {
    const { outcomes, before, conflicts } = this;
    return { fixture, outcomes, before, conflicts, state };
  }
}

/** The model stepped afresh over `steps`, for a sequence with no walk kept (`modelWalkOf`). */
export function steppedWalk(
  steps: readonly Step[],
  fixture: FixtureWithPolicy,
  spec: OperationSpec,
): ModelWalk {
  const recorder = new WalkRecorder();
  let state = initialState(fixture, spec);
  for (const s of steps) {
    for (const event of s.kind === 'concurrent' ? s.events : [s])
      state = recorder.step(state, event).state;
    recorder.kept();
  }
  return recorder.walk(fixture, state);
}
