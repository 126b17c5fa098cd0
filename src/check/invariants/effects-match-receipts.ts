/**
 * Invariant, for any operation: no effect without its receipt and no receipt without its effect.
 * Each receipt must match a fresh `ok` under its key with the same result; each live target row
 * must be its starting row with the effects of exactly the receipts written for it (in its current
 * incarnation) applied; the created rows (invoices) must be exactly those the receipts' effects
 * created. A spec that declares `versioned` (set-interval) is checked through versions instead
 * (`row-change-has-receipt.ts`).
 *
 * The effects are applied in step order. Two fresh effects on one row in the same concurrent
 * step have no known order: such a row is checked only when the effects commute (every order
 * within the step gives the same row), which holds for balances and creates. Each created row
 * belongs to one receipt: two receipts naming one invoice id leave the other invoice orphaned.
 */
import {
  type Args,
  createdRows,
  type OperationSpec,
  type Row,
  targetRows,
  writesSeveralRows,
} from '../../model/operation.ts';
import { SERVER_ASSIGNED, sameResult } from '../../model/outcome.ts';
import type { Result } from '../../model/world.ts';
import type { Observation } from '../../types/trace.ts';
import type { InvariantViolation } from '../../types/verdict.ts';
import type { RunRecord } from '../run-record.ts';
import {
  freshByKey as freshByKeyOf,
  lastRecreate,
  receiptKeyOf,
  receiptsMayExpire,
} from '../run-record.ts';
import { jointRowMismatch } from './joint-effects.ts';
import { sameFields, stepOrders } from './step-orders.ts';
import { unexplainedReceipt } from './unexplained-receipt.ts';

export const EFFECTS_MATCH_RECEIPTS = 'every effect has its receipt and every receipt its effect';

/** Checks the invariant; undefined when it holds (and for a `versioned` spec, checked elsewhere). */
export function checkEffectsMatchReceipts(run: RunRecord): InvariantViolation | undefined {
  const { spec } = run;
  if (spec.versioned) return undefined;
  // An expired receipt is gone by design (policy `receiptExpiry`).
  if (receiptsMayExpire(run)) return undefined;
  if (run.trace.observations.some((o) => o.observed.kind === 'unexpected')) return undefined;
  const fail = (message: string, step?: number): InvariantViolation => ({
    invariant: EFFECTS_MATCH_RECEIPTS,
    message,
    ...(step !== undefined ? { step } : {}),
  });
  const freshByKey = freshByKeyOf(run);
  const written: Observation[] = [];
  for (const r of run.trace.snapshot.receipts) {
    const fresh = freshByKey.get(receiptKeyOf(r));
    if (fresh?.observed.kind !== 'ok' || !sameResult(fresh.observed.result, r.result)) {
      const { message, step } = unexplainedReceipt(run, r);
      return fail(message, fresh?.step ?? step);
    }
    written.push(knownResult(fresh, r.result));
  }
  written.sort((a, b) => a.step - b.step || a.lane - b.lane);
  if (writesSeveralRows(spec)) {
    const mismatch = jointRowMismatch(run, spec, written);
    if (mismatch) return fail(mismatch);
  } else {
    const mismatch = rowMismatch(run, spec, written);
    if (mismatch) return fail(mismatch);
  }
  const created: Row[] = [];
  if (spec.created) {
    const idField = spec.created.resultId;
    const claimed = new Set<unknown>();
    for (const o of written) {
      if (o.observed.kind !== 'ok') continue;
      const id = o.observed.result[idField];
      if (claimed.has(id))
        return fail(
          `the fresh ok at step ${o.step + 1} names ${spec.created.table} row ${id}, which another receipt already names`,
          o.step,
        );
      claimed.add(id);
      const found = createdRows(run.trace.snapshot, spec).find((c) => c.id === id);
      if (!found)
        return fail(
          `the ${spec.created.table} row ${id} of the fresh ok at step ${o.step + 1} does not exist`,
          o.step,
        );
      created.push(found);
    }
    // Rows the fixture started with belong to no receipt; whether they are still as they were
    // is the snapshot comparison's to say.
    const started = new Set(createdRows(run.fixture, spec).map((r) => r.id));
    const made = createdRows(run.trace.snapshot, spec).filter((r) => !started.has(r.id));
    if (made.length !== created.filter((r) => !started.has(r.id)).length) {
      return fail(
        `${made.length} ${spec.created.table} row(s) were created, but ${created.length} receipt(s) were written`,
      );
    }
  }
  return undefined;
}

/**
 * For an operation that writes one row per call: the first live target row that is not its
 * starting row with exactly its receipted effects applied, described; undefined when none.
 */
function rowMismatch(
  run: RunRecord,
  spec: OperationSpec,
  written: readonly Observation[],
): string | undefined {
  const recreatedAt = lastRecreate(run.steps);
  const start = new Map(targetRows(run.fixture, spec).map((r) => [r.id, r]));
  let nextId = 1;
  for (const row of targetRows(run.trace.snapshot, spec)) {
    const since = recreatedAt.get(row.id);
    let expected: Row | undefined =
      since !== undefined ? spec.recreated(row.id, String(row.workspace)) : start.get(row.id);
    const mine = written.filter(
      (o) =>
        o.event.request[spec.targetField] === row.id && (since === undefined || o.step > since),
    );
    const apply = (order: readonly Observation[]): Row | undefined => {
      let at = expected;
      let id = nextId;
      for (const o of order) {
        if (!at) break;
        at = spec.effect(
          { ...at, workspace: String(row.workspace) },
          o.event.request as Args,
          id++,
          [],
        ).row;
      }
      return at;
    };
    const ends = stepOrders(mine).map(apply);
    const commute = ends.length > 0 && ends.every((e) => sameFields(spec.rowFields, e, ends[0]));
    nextId += mine.length;
    expected = ends[0];
    if (expected && commute && !spec.rowFields.every((f) => expected?.[f] === row[f])) {
      return `${spec.noun} ${row.id} ends as ${JSON.stringify(row)}, but its starting row with the ${mine.length} receipted effect(s) applied is ${JSON.stringify(expected)}`;
    }
  }
  return undefined;
}

/**
 * `fresh` with each server-assigned field its result leaves open filled in from its receipt's
 * stored result. A call that crashed after its commit got no answer, so the checker reads it with
 * the model's outcome, whose server-assigned ids are unknown; the receipt is the server's own
 * record of what that call created, and the only place its id can be read.
 */
function knownResult(fresh: Observation, stored: Result): Observation {
  const { observed } = fresh;
  if (observed.kind !== 'ok' || !Object.values(observed.result).includes(SERVER_ASSIGNED))
    return fresh;
  const result: Record<string, number | string> = { ...observed.result };
  for (const k of Object.keys(result)) {
    const value = stored[k];
    if (result[k] === SERVER_ASSIGNED && value !== undefined) result[k] = value;
  }
  return { ...fresh, observed: { ...observed, result } };
}
