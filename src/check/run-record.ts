/**
 * The input every run checker reads: the sequence, the fixture it started from, and the trace
 * an execution recorded. Also the small lookups the invariant checkers share.
 */

import type { Step } from '../model/events.ts';
import type { OperationSpec } from '../model/operation.ts';
import type { Observed } from '../model/outcome.ts';
import { declaresExpiry, resolvePolicy } from '../model/policy.ts';
import type { FixtureWithPolicy, ModelState } from '../model/state.ts';
import type { Fixture, Receipt } from '../model/world.ts';
import type { Observation, Trace } from '../types/trace.ts';

/** One run, ready to be checked. */
export interface RunRecord {
  readonly fixture: Fixture;
  /** The operation the run checked: the one its plugin implements. */
  readonly spec: OperationSpec;
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
export function callKey(run: Pick<RunRecord, 'fixture' | 'spec'>, o: Observation): string {
  const p = run.fixture.principals[o.event.client];
  return `${p?.workspace}\u0000${p?.user}\u0000${run.spec.tool}\u0000${String(o.event.request.requestId)}`;
}

/** The key of a stored receipt, comparable with `callKey`. */
export function receiptKeyOf(r: Receipt): string {
  return `${r.workspace}\u0000${r.user}\u0000${r.tool}\u0000${r.requestId}`;
}

// The lookups below are shared by several invariants of one run, so each keeps its last answer,
// for the very trace (and fixture) or steps it was asked about: a run is judged once, its
// invariants one after another, and traces and steps are never changed once recorded.

let freshFor: { trace: Trace; observations: number; fresh: readonly Observation[] } | undefined;

/** Observations that came back as a fresh `ok`. Shared: do not change it. */
export function freshOks(trace: Trace): readonly Observation[] {
  const kept = freshFor;
  if (kept?.trace === trace && kept.observations === trace.observations.length) return kept.fresh;
  const fresh = trace.observations.filter((o) => o.observed.kind === 'ok' && !o.observed.replayed);
  freshFor = { trace, observations: trace.observations.length, fresh };
  return fresh;
}

let byKeyFor:
  | {
      trace: Trace;
      fixture: Fixture;
      fresh: readonly Observation[];
      byKey: ReadonlyMap<string, Observation>;
    }
  | undefined;

/** The fresh `ok`s by `callKey`, the last one under each key. Shared: do not change it. */
export function freshByKey(run: RunRecord): ReadonlyMap<string, Observation> {
  const fresh = freshOks(run.trace);
  const kept = byKeyFor;
  if (kept?.trace === run.trace && kept.fixture === run.fixture && kept.fresh === fresh)
    return kept.byKey;
  const byKey = new Map<string, Observation>();
  for (const o of fresh) byKey.set(callKey(run, o), o);
  byKeyFor = { trace: run.trace, fixture: run.fixture, fresh, byKey };
  return byKey;
}

let recreateFor:
  | { steps: readonly Step[]; length: number; at: ReadonlyMap<number, number> }
  | undefined;

/**
 * For each target row id, the step of its last `recreate` (its current incarnation began there).
 * Shared: do not change it.
 */
export function lastRecreate(steps: readonly Step[]): ReadonlyMap<number, number> {
  const kept = recreateFor;
  if (kept?.steps === steps && kept.length === steps.length) return kept.at;
  const at = new Map<number, number>();
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i] as Step;
    if (s.kind === 'concurrent') {
      for (const e of s.events) if (e.kind === 'recreate') at.set(e.resourceId, i);
    } else if (s.kind === 'recreate') at.set(s.resourceId, i);
  }
  recreateFor = { steps, length: steps.length, at };
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
