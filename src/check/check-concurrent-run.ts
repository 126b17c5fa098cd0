/**
 * Judges one concurrent run. Outcomes are not compared step by step (lanes of a group may take
 * effect in any order); instead:
 *
 * 1. the history must be linearizable against the model (`checkHistory`). The harness's view
 *    (`harness-view.ts`: lost responses completed with their real outcomes) is searched first,
 *    with a quarter of the time: when it has a linearisation ending at the database, that is
 *    a witness for the clients' view too, found without trying lost calls at every dead end;
 * 2. the final database must equal the model's state after the linearisation found. The first
 *    search sees the history as the clients saw it: a lost response may have landed anywhere
 *    later or nowhere, so when nothing later observed it the witness may leave it out. When that
 *    witness ends elsewhere than the database, the search is asked again with what the harness
 *    knows (`returnedAt`: each lost call ran, inside its real interval) for an order that ends
 *    exactly at the database;
 * 3. every invariant must hold. They read the trace, whose observations are the real outcomes
 *    in step and lane order, not in time order; each is order-free (a map by key, a count, or a
 *    sort by version), so lane order is as good as any for them.
 * Pure; the verdict is data.
 */

import type { HistoryEntry } from '../model/history.ts';
import { initialState, type ModelState, toSnapshot } from '../model/state.ts';
import type { Snapshot } from '../model/world.ts';
import type { Failure, RunVerdict } from '../types/verdict.ts';
import { harnessView } from './harness-view.ts';
import { checkInvariants } from './invariants/all-invariants.ts';
import { checkHistory } from './linearizability/check-history.ts';
import {
  type LinearizabilityOptions,
  resolveLinearizabilityOptions,
} from './linearizability/options.ts';
import { linearizabilityFailure } from './linearizability-failure.ts';
import type { RunRecord } from './run-record.ts';
import { diffSnapshots } from './snapshot-diff.ts';

/** A concurrent run, ready to be checked. */
export interface ConcurrentRunRecord extends RunRecord {
  /** Entry `i` has id `i`. */
  readonly history: readonly HistoryEntry[];
  /** Where each entry stood in the sequence, by id. */
  readonly places: readonly { readonly step: number; readonly lane: number }[];
  /**
   * By id: when a lost response's call really returned, as the harness saw it. Used only to
   * reconcile the final snapshot; absent entries stay unknown.
   */
  readonly returnedAt?: readonly (number | undefined)[];
}

/** The verdict, and the witness order when the history was linearizable. */
export interface ConcurrentVerdict {
  readonly verdict: RunVerdict;
  /** Entry ids in the linearisation found; absent when there is none. */
  readonly order?: readonly number[];
}

/** Checks a concurrent run; `options` bound the linearizability search. */
export function checkConcurrentRun(
  run: ConcurrentRunRecord,
  options?: LinearizabilityOptions,
): ConcurrentVerdict {
  const failures: Failure[] = [];
  const initial = initialState(run.fixture, run.spec);
  const quick = harnessWitness(run, initial, options);
  if (quick) return withInvariants(run, failures, quick);
  const result = checkHistory(initial, run.history, options);
  let order: readonly number[] | undefined;
  if (result.verdict === 'ok') {
    order = result.order;
    const differences = diffSnapshots(
      toSnapshot(result.finalState),
      run.trace.snapshot,
      result.finalState.operation,
    );
    if (differences.length > 0) {
      const known = run.history.map((e) => {
        const returned = run.returnedAt?.[e.id];
        return e.completedAt === undefined && returned !== undefined
          ? { ...e, completedAt: returned }
          : e;
      });
      const again = endingAt(initial, known, run.trace.snapshot, options);
      if (again) order = again;
      else failures.push({ kind: 'snapshot', differences });
    }
  } else {
    failures.push(linearizabilityFailure(result, run.history, run.places));
  }
  return withInvariants(run, failures, order);
}

/** The verdict: `failures` so far and the invariants' ones, with the witness if there is one. */
function withInvariants(
  run: ConcurrentRunRecord,
  failures: Failure[],
  order: readonly number[] | undefined,
): ConcurrentVerdict {
  for (const v of checkInvariants(run)) failures.push({ kind: 'invariant', ...v });
  const verdict: RunVerdict =
    failures.length === 0 ? { verdict: 'ok' } : { verdict: 'failed', failures };
  return order ? { verdict, order } : { verdict };
}

/**
 * A linearisation of the harness's view that ends at the database, if the quick search finds
 * one; undefined when there is no such view or the search says anything else.
 */
function harnessWitness(
  run: ConcurrentRunRecord,
  initial: ModelState,
  options: LinearizabilityOptions | undefined,
): readonly number[] | undefined {
  const view = harnessView(run);
  if (!view) return undefined;
  const timeLimitMs = resolveLinearizabilityOptions(options).timeLimitMs / 4;
  const result = checkHistory(initial, view, { ...options, timeLimitMs });
  if (result.verdict !== 'ok') return undefined;
  const final = toSnapshot(result.finalState);
  return diffSnapshots(final, run.trace.snapshot, initial.operation).length === 0
    ? result.order
    : undefined;
}

/** A linearisation whose final state is `snapshot`, if one exists within the limits. */
function endingAt(
  initial: ModelState,
  history: readonly HistoryEntry[],
  snapshot: Snapshot,
  options: LinearizabilityOptions | undefined,
): readonly number[] | undefined {
  const acceptFinal = (state: ModelState) =>
    diffSnapshots(toSnapshot(state), snapshot, state.operation).length === 0;
  const result = checkHistory(initial, history, { ...options, acceptFinal });
  return result.verdict === 'ok' ? result.order : undefined;
}
