/**
 * Invariant: no row change exists without its receipt, and no receipt without its row change.
 * Each receipt must match a fresh `ok` under the same key with the same result; each live row's
 * version must have advanced once per receipt written for it in its current incarnation.
 */

import { sameResult } from '../../model/outcome.ts';
import type { InvariantViolation } from '../../types/verdict.ts';
import type { RunRecord } from '../run-record.ts';
import { callKey, freshOks, lastRecreate, receiptKeyOf } from '../run-record.ts';

export const ROW_CHANGE_HAS_RECEIPT =
  'every row change has its receipt and every receipt its row change';

/** Checks the invariant; undefined when it holds. */
export function checkRowChangeHasReceipt(run: RunRecord): InvariantViolation | undefined {
  const freshByKey = new Map(freshOks(run.trace).map((o) => [callKey(run.fixture, o), o]));
  const recreatedAt = lastRecreate(run.steps);
  const receiptsSince = new Map<number, number>();
  for (const r of run.trace.snapshot.receipts) {
    const fresh = freshByKey.get(receiptKeyOf(r));
    if (fresh?.observed.kind !== 'ok' || !sameResult(fresh.observed.result, r.result)) {
      return {
        invariant: ROW_CHANGE_HAS_RECEIPT,
        message: `receipt for request "${r.requestId}" (${r.user}@${r.workspace}) stores result v${r.result.version}, but no fresh ok returned that result`,
        ...(fresh ? { step: fresh.step } : {}),
      };
    }
    const since = recreatedAt.get(r.result.id);
    if (since === undefined || fresh.step > since)
      receiptsSince.set(r.result.id, (receiptsSince.get(r.result.id) ?? 0) + 1);
  }
  for (const row of run.trace.snapshot.automations) {
    const base = recreatedAt.has(row.id)
      ? 1
      : (run.fixture.automations.find((a) => a.id === row.id)?.version ?? 1);
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
