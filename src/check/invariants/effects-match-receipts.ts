/**
 * Invariant, for any operation: no effect without its receipt and no receipt without its effect.
 * Each receipt must match a fresh `ok` under its key with the same result; each live target row
 * must be its starting row with the effects of exactly the receipts written for it (in its current
 * incarnation) applied; the created rows (invoices) must be exactly those the receipts' effects
 * created. `set-interval` checks the same through versions (`row-change-has-receipt.ts`).
 *
 * The effects are applied in step order. Two fresh effects on one row in the same concurrent
 * step have no known order: such a row is checked only when the effects commute (same result
 * either way), which holds for balances and creates.
 */
import { type Args, createdRows, type Row, targetRows } from '../../model/operation.ts';
import { sameResult } from '../../model/outcome.ts';
import { operationOf } from '../../model/state.ts';
import type { Observation } from '../../types/trace.ts';
import type { InvariantViolation } from '../../types/verdict.ts';
import type { RunRecord } from '../run-record.ts';
import { callKey, freshOks, lastRecreate, receiptKeyOf } from '../run-record.ts';

export const EFFECTS_MATCH_RECEIPTS = 'every effect has its receipt and every receipt its effect';

/** Checks the invariant; undefined when it holds (and for `set-interval`, checked elsewhere). */
export function checkEffectsMatchReceipts(run: RunRecord): InvariantViolation | undefined {
  const spec = operationOf(run.fixture);
  if (spec.name === 'set-interval') return undefined;
  if (run.trace.observations.some((o) => o.observed.kind === 'unexpected')) return undefined;
  const fail = (message: string, step?: number): InvariantViolation => ({
    invariant: EFFECTS_MATCH_RECEIPTS,
    message,
    ...(step !== undefined ? { step } : {}),
  });
  const freshByKey = new Map(freshOks(run.trace).map((o) => [callKey(run.fixture, o), o]));
  const written: Observation[] = [];
  for (const r of run.trace.snapshot.receipts) {
    const fresh = freshByKey.get(receiptKeyOf(r));
    if (fresh?.observed.kind !== 'ok' || !sameResult(fresh.observed.result, r.result)) {
      return fail(
        `receipt for request "${r.requestId}" (${r.user}@${r.workspace}) stores a result no fresh ok returned`,
        fresh?.step,
      );
    }
    written.push(fresh);
  }
  written.sort((a, b) => a.step - b.step || a.lane - b.lane);
  const recreatedAt = lastRecreate(run.steps);
  const start = new Map(targetRows(run.fixture, spec).map((r) => [r.id, r]));
  const created: Row[] = [];
  let nextId = 1;
  for (const row of targetRows(run.trace.snapshot, spec)) {
    const since = recreatedAt.get(row.id);
    let expected: Row | undefined =
      since !== undefined ? spec.recreated(row.id, String(row.workspace)) : start.get(row.id);
    const mine = written.filter(
      (o) =>
        o.event.request[spec.targetField] === row.id && (since === undefined || o.step > since),
    );
    for (const o of mine) {
      if (!expected) break;
      expected = spec.effect(
        { ...expected, workspace: String(row.workspace) },
        o.event.request as Args,
        nextId++,
      ).row;
    }
    const ordered = new Set(mine.map((o) => o.step)).size === mine.length;
    if (expected && ordered && !spec.rowFields.every((f) => expected?.[f] === row[f])) {
      return fail(
        `${spec.noun} ${row.id} ends as ${JSON.stringify(row)}, but its starting row with the ${mine.length} receipted effect(s) applied is ${JSON.stringify(expected)}`,
      );
    }
  }
  if (spec.created) {
    const idField = spec.created.resultId;
    for (const o of written) {
      if (o.observed.kind !== 'ok') continue;
      const id = o.observed.result[idField];
      const found = createdRows(run.trace.snapshot, spec).find((c) => c.id === id);
      if (!found)
        return fail(
          `the ${spec.created.table} row ${id} of the fresh ok at step ${o.step + 1} does not exist`,
          o.step,
        );
      created.push(found);
    }
    const extra = createdRows(run.trace.snapshot, spec).length - created.length;
    if (extra !== 0) {
      return fail(
        `${createdRows(run.trace.snapshot, spec).length} ${spec.created.table} row(s) exist, but ${created.length} receipt(s) were written`,
      );
    }
  }
  return undefined;
}
