/**
 * Invariant: no row change exists without its receipt, and no receipt without its row change.
 * Each receipt must match a fresh `ok` under the same key with the same result; each live row's
 * version must have advanced once per receipt written for it in its current incarnation.
 */

import { setInterval } from '../../model/operations/set-interval.ts';
import { sameResult } from '../../model/outcome.ts';
import { operationOf } from '../../model/state.ts';
import type { Automation, CallResult, SetIntervalSnapshot } from '../../model/world.ts';
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
  // set_interval's form of the invariant, through versions; other operations: effects-match-receipts.ts
  if (operationOf(run.fixture) !== setInterval) return undefined;
  // An expired receipt is gone by design (policy `receiptExpiry`).
  if (receiptsMayExpire(run)) return undefined;
  const automations = (run.fixture.automations ?? []) as readonly Automation[];
  const snapshot = run.trace.snapshot as SetIntervalSnapshot;
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
  for (const row of snapshot.automations) {
    const base = recreatedAt.has(row.id)
      ? 1
      : (automations.find((a) => a.id === row.id)?.version ?? 1);
    const written = receiptsSince.get(row.id) ?? 0;
    if (row.version - base !== written) {
      return {
        invariant: ROW_CHANGE_HAS_RECEIPT,
        message: `automation ${row.id} is at version ${row.version} (started at ${base}), but ${written} receipt(s) were written for it`,
      };
    }
  }
  return undefined;
}
