/**
 * Invariant: the number of receipts equals the number of fresh `ok` outcomes. One more receipt
 * means a write that reported failure kept its receipt; one fewer, a success that left none.
 */
import type { InvariantViolation } from '../../types/verdict.ts';
import type { RunRecord } from '../run-record.ts';
import { freshOks, receiptsMayExpire } from '../run-record.ts';

export const RECEIPTS_COUNT_FRESH = 'receipts equal fresh ok outcomes in number';

/** Checks the invariant; undefined when it holds. */
export function checkReceiptsCountFresh(run: RunRecord): InvariantViolation | undefined {
  // An expired receipt is gone by design (policy `receiptExpiry`).
  if (receiptsMayExpire(run)) return undefined;
  const fresh = freshOks(run.trace).length;
  const receipts = run.trace.snapshot.receipts.length;
  if (fresh === receipts) return undefined;
  return {
    invariant: RECEIPTS_COUNT_FRESH,
    message: `${receipts} receipt(s) stored, but ${fresh} fresh ok outcome(s) reported`,
  };
}
