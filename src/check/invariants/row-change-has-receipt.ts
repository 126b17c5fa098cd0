/**
 * Invariant: no row change exists without its receipt, and no receipt without its row change.
 * Each receipt must match a fresh `ok` under the same key with the same result; each live row's
 * version must have advanced once per receipt written for it in its current incarnation.
 */

import { targetRows } from '../../model/operation.ts';
import { sameResult } from '../../model/outcome.ts';
import type { CallResult } from '../../model/world.ts';
import type { InvariantViolation } from '../../types/verdict.ts';
import type { RunRecord } from '../run-record.ts';
import {
  freshByKey as freshByKeyOf,
  lastRecreate,
  receiptKeyOf,
  receiptsMayExpire,
} from '../run-record.ts';
import { unexplainedReceipt } from './unexplained-receipt.ts';

export const ROW_CHANGE_HAS_RECEIPT =
  'every row change has its receipt and every receipt its row change';

/** Checks the invariant; undefined when it holds. */
export function checkRowChangeHasReceipt(run: RunRecord): InvariantViolation | undefined {
  // The form of the invariant for a spec that declares versions; others: effects-match-receipts.ts
  const { spec } = run;
  if (!spec.versioned) return undefined;
  // An expired receipt is gone by design (policy `receiptExpiry`).
  if (receiptsMayExpire(run)) return undefined;
  const start = targetRows(run.fixture, spec);
  const freshByKey = freshByKeyOf(run);
  const recreatedAt = lastRecreate(run.steps);
  const receiptsSince = new Map<number, number>();
  for (const r of run.trace.snapshot.receipts) {
    const fresh = freshByKey.get(receiptKeyOf(r));
    if (fresh?.observed.kind !== 'ok' || !sameResult(fresh.observed.result, r.result)) {
      const { message, step } = unexplainedReceipt(run, r);
      const blamed = fresh?.step ?? step;
      return {
        invariant: ROW_CHANGE_HAS_RECEIPT,
        message,
        ...(blamed !== undefined ? { step: blamed } : {}),
      };
    }
    const since = recreatedAt.get((r.result as CallResult).id);
    if (since === undefined || fresh.step > since)
      receiptsSince.set(
        (r.result as CallResult).id,
        (receiptsSince.get((r.result as CallResult).id) ?? 0) + 1,
      );
  }
  for (const row of targetRows(run.trace.snapshot, spec)) {
    const base = recreatedAt.has(row.id)
      ? 1
      : ((start.find((a) => a.id === row.id)?.version as number | undefined) ?? 1);
    const written = receiptsSince.get(row.id) ?? 0;
    if ((row.version as number) - base !== written) {
      return {
        invariant: ROW_CHANGE_HAS_RECEIPT,
        message: `${spec.noun} ${row.id} is at version ${row.version} (started at ${base}), but ${written} receipt(s) were written for it`,
      };
    }
  }
  return undefined;
}
