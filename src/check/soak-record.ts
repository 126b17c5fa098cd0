/**
 * A soak run's raw material made checkable, and counted. Pure. The history is put in invocation
 * order to stand in for the sequence (each operation one step, its client as the lane), so the
 * invariants and failure reports, which speak of steps, read it like any concurrent run.
 */

import type { Step } from '../model/events.ts';
import type { HistoryEntry } from '../model/history.ts';
import type { OperationSpec } from '../model/operation.ts';
import type { Observed } from '../model/outcome.ts';
import type { Fixture, Snapshot } from '../model/world.ts';
import type { SoakCounts } from '../types/results.ts';
import type { Observation } from '../types/trace.ts';
import type { Failure } from '../types/verdict.ts';
import type { ConcurrentRunRecord } from './check-concurrent-run.ts';

/** How many operations of a long linearizability prefix a soak failure keeps (the last ones). */
export const PREFIX_SHOWN = 20;

/**
 * The record `checkConcurrentRun` reads. `real[id]` is the outcome entry `id` really had (the
 * history hides it for a lost response); undefined for world events.
 */
export function soakRecord(
  fixture: Fixture,
  spec: OperationSpec,
  history: readonly HistoryEntry[],
  real: readonly (Observed | undefined)[],
  snapshot: Snapshot,
): ConcurrentRunRecord {
  const ranked = [...history].sort((a, b) => a.invokedAt - b.invokedAt || a.id - b.id);
  const rankOf = new Map(ranked.map((e, rank) => [e.id, rank]));
  const steps: Step[] = ranked.map((e) => e.event);
  const observations: Observation[] = [];
  for (const e of ranked) {
    const observed = real[e.id];
    if (e.event.kind === 'call' && observed)
      observations.push({
        step: rankOf.get(e.id) as number,
        lane: e.client,
        event: e.event,
        observed,
      });
  }
  const places = history.map((e) => ({ step: rankOf.get(e.id) as number, lane: e.client }));
  return { fixture, spec, steps, trace: { observations, snapshot }, history, places };
}

/** Counts operations and real outcomes. */
export function countOperations(
  history: readonly HistoryEntry[],
  real: readonly (Observed | undefined)[],
): SoakCounts {
  const outcomes: Record<string, number> = {};
  let calls = 0;
  let lostResponses = 0;
  let lostRequests = 0;
  for (const e of history) {
    if (e.event.kind !== 'call') continue;
    calls++;
    if (e.event.delivery === 'lostResponse') lostResponses++;
    if (e.event.delivery === 'lostRequest') lostRequests++;
    const o = real[e.id];
    if (!o) continue;
    const key =
      o.kind === 'ok'
        ? o.replayed
          ? 'replayed'
          : 'fresh'
        : o.kind === 'refused'
          ? `refused:${o.reason}`
          : o.kind;
    outcomes[key] = (outcomes[key] ?? 0) + 1;
  }
  return {
    operations: history.length,
    calls,
    worldEvents: history.length - calls,
    lostResponses,
    lostRequests,
    outcomes,
  };
}

/** A linearizability failure with its prefix cut to the last `PREFIX_SHOWN` operations. */
export function trimPrefix(f: Failure): Failure {
  if (f.kind !== 'linearizability' || f.longestPrefix.length <= PREFIX_SHOWN) return f;
  return {
    ...f,
    longestPrefix: f.longestPrefix.slice(-PREFIX_SHOWN),
    prefixLength: f.longestPrefix.length,
  };
}
