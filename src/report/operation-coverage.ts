/**
 * Counts what generated sequences came to against the operation's rules
 * (`types/operation-coverage.ts`): the model walks each sequence as execution does (groups in
 * lane order), and every call is classed by the model's answer; a call the
 * precondition decided (fresh, or refused with the precondition's reason) is also probed for
 * sitting next to its edge (`generate/precondition-edges.ts`), and every concurrent group for a
 * conflict (`generate/group-conflicts.ts`). Pure.
 */
import { answerKind, groupConflicts } from '../generate/group-conflicts.ts';
import { modelWalkOf, steppedWalk } from '../generate/model-walk.ts';
import { edgeSideOf, seekableFields } from '../generate/precondition-edges.ts';
import type { CallEvent, Step } from '../model/events.ts';
import type { Args, OperationSpec } from '../model/operation.ts';
import type { Observed } from '../model/outcome.ts';
import type { FixtureWithPolicy, ModelState } from '../model/state.ts';
import { otherRowsOf } from '../model/targets.ts';
import type { OperationCoverage } from '../types/operation-coverage.ts';

/** A coverage record for `spec` with every count at zero. */
export function emptyOperationCoverage(spec: OperationSpec): OperationCoverage {
  const precondition = spec.precondition !== undefined;
  return {
    operation: spec.name,
    precondition,
    edges: precondition
      ? Object.fromEntries(seekableFields(spec).map((f) => [f.name, { held: 0, refused: 0 }]))
      : {},
    outcomes: {},
    refusals: {},
    groups: { total: 0, conflicting: 0 },
  };
}

/**
 * Adds what `steps` of `spec`, run from `fixture`, came to into `into`. Called for every run: a
 * generated sequence's model walk (`generate/model-walk.ts`) gives each event's state and answer
 * and each group's conflict, so only a sequence without one (a saved case) steps the model here.
 */
export function countOperationCoverage(
  steps: readonly Step[],
  fixture: FixtureWithPolicy,
  spec: OperationSpec,
  into: OperationCoverage,
): void {
  const walk = modelWalkOf(steps, fixture, spec) ?? steppedWalk(steps, fixture, spec);
  let e = 0;
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i] as Step;
    if (s.kind === 'concurrent') {
      into.groups.total++;
      const before = walk.before[e] as ModelState;
      if (walk.conflicts[i] ?? groupConflicts(before, s.events)) into.groups.conflicting++;
    }
    for (const event of s.kind === 'concurrent' ? s.events : [s]) {
      if (event.kind === 'call')
        countCall(walk.before[e] as ModelState, event, walk.outcomes[e], into);
      e++;
    }
  }
}

/** Classes a call by `answer`, the model's from `state`. */
function countCall(
  state: ModelState,
  event: CallEvent,
  answer: Observed | undefined,
  into: OperationCoverage,
): void {
  // A refusal's kind is `refused:<reason>`: its parts are read off the answer, not the text.
  const reason = answer?.kind === 'refused' ? answer.reason : undefined;
  const outcome = reason !== undefined ? 'refused' : answerKind(answer);
  add(into.outcomes, outcome);
  if (reason !== undefined) add(into.refusals, reason);
  const spec = state.operation;
  if (!spec.precondition || (outcome !== 'fresh' && outcome !== 'refused')) return;
  const row = state.rows.get(event.request[spec.targetField] as number);
  const args = event.request as unknown as Args;
  const others = otherRowsOf(spec, args, (id) => state.rows.get(id));
  if (!row || !others) return;
  if (reason !== undefined && spec.precondition(row, args, others) !== reason) return;
  for (const field of seekableFields(spec)) {
    const side = edgeSideOf(spec, row, others, args, field);
    const count = into.edges[field.name];
    if (side && count) count[side]++;
  }
}

function add(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** Adds `from`'s counts into `into` (the same operation's). */
export function mergeOperationCoverage(into: OperationCoverage, from: OperationCoverage): void {
  for (const [field, c] of Object.entries(from.edges)) {
    const count = into.edges[field];
    into.edges[field] = {
      held: (count?.held ?? 0) + c.held,
      refused: (count?.refused ?? 0) + c.refused,
    };
  }
  for (const [k, n] of Object.entries(from.outcomes))
    into.outcomes[k] = (into.outcomes[k] ?? 0) + n;
  for (const [k, n] of Object.entries(from.refusals))
    into.refusals[k] = (into.refusals[k] ?? 0) + n;
  into.groups.total += from.groups.total;
  into.groups.conflicting += from.groups.conflicting;
}
