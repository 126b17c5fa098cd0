/**
 * The input every run checker reads: the sequence, the fixture it started from, and the trace
 * an execution recorded. Also the small lookups the invariant checkers share.
 */

import type { Step } from '../model/events.ts';
import type { Observed } from '../model/outcome.ts';
import { declaresExpiry, resolvePolicy } from '../model/policy.ts';
import { type FixtureWithPolicy, type ModelState, operationOf } from '../model/state.ts';
import type { Fixture, Receipt } from '../model/world.ts';
import type { Observation, Trace } from '../types/trace.ts';

/** One run, ready to be checked. */
export interface RunRecord {
  readonly fixture: Fixture;
  readonly steps: readonly Step[];
  readonly trace: Trace;
  /**
   * The model already stepped over `steps` from `initialState(fixture)`, when generation did it
   * (`generate/model-walk.ts`): each event's outcome in `flatten` order, and the final state.
   * Absent, the checker steps the model itself; present, it must be exactly that walk.
   */
  readonly walk?: {
    readonly outcomes: readonly (Observed | undefined)[];
    readonly state: ModelState;
  };
}

/** The receipt key a call by `client` with `requestId` is stored under (workspace, user, tool, id). */
export function callKey(fixture: Fixture, o: Observation): string {
  const p = fixture.principals[o.event.client];
  return `${p?.workspace}\u0000${p?.user}\u0000${operationOf(fixture).tool}\u0000${String(o.event.request.requestId)}`;
}

/** The key of a stored receipt, comparable with `callKey`. */
export function receiptKeyOf(r: Receipt): string {
  return `${r.workspace}\u0000${r.user}\u0000${r.tool}\u0000${r.requestId}`;
}

/** Observations that came back as a fresh `ok`. */
export function freshOks(trace: Trace): Observation[] {
  return trace.observations.filter((o) => o.observed.kind === 'ok' && !o.observed.replayed);
}

/** For each target row id, the step of its last `recreate` (its current incarnation began there). */
export function lastRecreate(steps: readonly Step[]): Map<number, number> {
  const at = new Map<number, number>();
  steps.forEach((s, i) => {
    for (const e of s.kind === 'concurrent' ? s.events : [s])
      if (e.kind === 'recreate') at.set(e.resourceId, i);
  });
  return at;
}

/**
 * Whether a receipt may have expired in the run: the policy declares an expiry and time passed
 * (a `clockAdvance`). Receipts then no longer count every fresh success, and the invariants that
 * count them stand down; the model's comparison of the final receipts still checks each.
 */
export function receiptsMayExpire(run: RunRecord): boolean {
  if (!declaresExpiry(resolvePolicy((run.fixture as FixtureWithPolicy).policy))) return false;
  return run.steps.some((s) =>
    (s.kind === 'concurrent' ? s.events : [s]).some((e) => e.kind === 'clockAdvance'),
  );
}
