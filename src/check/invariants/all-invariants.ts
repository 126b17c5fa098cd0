/** All invariant checkers, one per invariant of docs/contract.md, run in this order. */

import type { InvariantViolation } from '../../types/verdict.ts';
import type { RunRecord } from '../run-record.ts';
import { checkEffectsMatchReceipts } from './effects-match-receipts.ts';
import { checkFreshAdvancesVersion } from './fresh-advances-version.ts';
import { checkReceiptsCountFresh } from './receipts-count-fresh.ts';
import { checkReplayMatchesFresh } from './replay-matches-fresh.ts';
import { checkRowChangeHasReceipt } from './row-change-has-receipt.ts';

/** Each checker returns a violation or undefined. */
export const INVARIANTS: readonly ((run: RunRecord) => InvariantViolation | undefined)[] = [
  checkFreshAdvancesVersion,
  checkReceiptsCountFresh,
  checkRowChangeHasReceipt,
  checkEffectsMatchReceipts,
  checkReplayMatchesFresh,
];

/** Every violation in a run. */
export function checkInvariants(run: RunRecord): InvariantViolation[] {
  return INVARIANTS.map((check) => check(run)).filter(
    (v): v is InvariantViolation => v !== undefined,
  );
}
