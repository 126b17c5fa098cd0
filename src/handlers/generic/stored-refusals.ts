/**
 * Stored refusals for the generic SQLite handler under a declared `storesRefusals`: a refusal
 * the transaction makes (the target unavailable, the precondition's reason; never `forbidden`,
 * which the prechecks answer before any key is read) is stored under the call's key with its
 * payload, and a later call under that key whose target is accessible and which finds no receipt
 * gets it back (the same payload) or key reuse (another). Storing one is a write to the receipt
 * store, so it fails while the store does, and the call then answers `error` with nothing
 * changed. Stored refusals are not receipts: they live in a table of their own that no snapshot
 * reads. The steps are the contract's order with those two additions, as the model's `refuse`
 * and `storedAnswer` have them.
 */
import { type Outcome, outcome, type RefusalReason } from '../../model/outcome.ts';
import type { Connection } from '../plugin.ts';
import type { OperationMutant } from '../sqlite/operation-handler.ts';
import {
  type Caller,
  keyOf,
  type OperationSql,
  type ValidCall,
} from '../sqlite/operation-steps.ts';
import { canonicalText } from '../sqlite/receipt-store.ts';
import { cachedStatement } from '../sqlite/statement-cache.ts';
import { STORE_FAILURE } from '../sqlite/store-switch.ts';

const KEY = 'workspace_id, user_id, tool, request_id';

/**
 * The stored refusals' table, failing with the receipt store (its switch's flag table, which the
 * world's schema made first); run in `setup` after the world's.
 */
export const STORED_REFUSALS_DDL = `CREATE TABLE stored_refusals(
  workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, tool TEXT NOT NULL,
  request_id TEXT NOT NULL, payload TEXT NOT NULL, reason TEXT NOT NULL,
  PRIMARY KEY(${KEY}));
CREATE TRIGGER stored_refusals_down BEFORE INSERT ON stored_refusals
  WHEN EXISTS (SELECT 1 FROM receiptcheck_receipts_down)
  BEGIN SELECT RAISE(ABORT, '${STORE_FAILURE}'); END;
`;

/** The transaction body that stores and answers refusals, for `op`'s calls. */
export function storingRefusals<R extends ValidCall>(
  op: OperationSql<R>,
): NonNullable<OperationMutant<R>['body']> {
  const { spec } = op;
  return (db, caller, r, steps) => {
    if (!steps.canAccess(db, caller, r)) return refuse(db, op, caller, r, 'unavailable');
    const stored = steps.findReceipt(db, caller, r);
    if (stored) return steps.answerReceipt(db, stored, r);
    const refused = cachedStatement(
      db,
      `SELECT payload, reason FROM stored_refusals WHERE (${KEY}) = (?, ?, ?, ?)`,
    ).get(...keyOf(spec, caller, r)) as { payload: string; reason: RefusalReason } | undefined;
    if (refused)
      return refused.payload === canonicalText(op.payloadOf(r))
        ? outcome.refused(refused.reason)
        : outcome.keyReuse();
    const reason = steps.checkPrecondition(db, caller, r);
    if (reason) return refuse(db, op, caller, r, reason);
    const result = steps.applyEffect(db, caller, r);
    steps.insertReceipt(db, caller, r, result);
    return outcome.fresh(result);
  };
}

/** Stores `reason` under the call's key (replacing what a refusal left there) and answers it. */
function refuse<R extends ValidCall>(
  db: Connection,
  op: OperationSql<R>,
  caller: Caller,
  r: R,
  reason: RefusalReason,
): Outcome {
  cachedStatement(db, 'INSERT OR REPLACE INTO stored_refusals VALUES (?, ?, ?, ?, ?, ?)').run(
    ...keyOf(op.spec, caller, r),
    canonicalText(op.payloadOf(r)),
    reason,
  );
  return outcome.refused(reason);
}
