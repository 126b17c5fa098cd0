/**
 * The reference handler's transaction (docs/contract.md, rules 6–10), one function per rule. The
 * reference runs `runSteps(…, referenceSteps)`; a mutant replaces one step, so its file shows
 * only its bug. Statements are prepared once per connection (statement-cache.ts).
 */
import { type Outcome, outcome } from '../../../../model/outcome.ts';
import { type CallResult, TOOL } from '../../../../model/world.ts';
import type { Connection } from '../../../plugin.ts';
import type { Caller, StoredReceipt } from '../../../sqlite/operation-steps.ts';
import { cachedStatement } from '../../../sqlite/statement-cache.ts';

export type { Caller, StoredReceipt } from '../../../sqlite/operation-steps.ts';

import { canonicalPayload, parseResult, resultText } from './set-interval-world.ts';

/** The arguments after validation (rules 2–4). */
export interface ValidRequest {
  readonly requestId: string;
  readonly automationId: number;
  readonly expectedVersion: number;
  readonly intervalMinutes: number;
}

/** The reference's transaction, one step per rule. Each runs inside the caller's transaction. */
export interface TransactionSteps {
  /** Rule 6: whether the automation exists in the principal's workspace right now. */
  canAccess(db: Connection, principal: Caller, r: ValidRequest): boolean;
  /** Rule 7: the receipt stored under the call's key, if any. */
  findReceipt(db: Connection, principal: Caller, r: ValidRequest): StoredReceipt | undefined;
  /** Rule 7: the answer when a receipt exists: the stored result replayed, or key reuse. */
  answerReceipt(db: Connection, stored: StoredReceipt, r: ValidRequest): Outcome;
  /** Rules 8–9: the versioned update; the new row, or undefined on a version conflict. */
  updateRow(db: Connection, principal: Caller, r: ValidRequest): CallResult | undefined;
  /** Rule 10: stores the receipt; throws a constraint error when the receipt store fails. */
  insertReceipt(db: Connection, principal: Caller, r: ValidRequest, result: CallResult): void;
}

/** The receipt key of a call, in column order: workspace, user, tool, request id. */
export function keyOf(principal: Caller, r: ValidRequest): [string, string, string, string] {
  return [principal.workspace, principal.user, TOOL, r.requestId];
}

/** The canonical payload text the call binds its key to. */
export function payloadOf(r: ValidRequest): string {
  return canonicalPayload(r.automationId, r.expectedVersion, r.intervalMinutes);
}

/** The steps exactly as the reference handler takes them. */
export const referenceSteps: TransactionSteps = {
  canAccess(db, principal, r) {
    return (
      cachedStatement(db, 'SELECT 1 FROM automations WHERE id = ? AND workspace_id = ?').get(
        r.automationId,
        principal.workspace,
      ) !== undefined
    );
  },
  findReceipt(db, principal, r) {
    return cachedStatement(
      db,
      'SELECT payload, response FROM receipts WHERE workspace_id = ? AND user_id = ? AND tool = ? AND request_id = ?',
    ).get(...keyOf(principal, r)) as StoredReceipt | undefined;
  },
  answerReceipt(_db, stored, r) {
    if (stored.payload !== payloadOf(r)) return outcome.keyReuse();
    return outcome.replayed(parseResult(stored.response));
  },
  updateRow(db, principal, r) {
    const row = cachedStatement(
      db,
      `UPDATE automations SET interval_minutes = ?, version = version + 1
         WHERE id = ? AND workspace_id = ? AND version = ?
         RETURNING id, interval_minutes, version`,
    ).get(r.intervalMinutes, r.automationId, principal.workspace, r.expectedVersion) as
      | { id: number; interval_minutes: number; version: number }
      | undefined;
    return row && { id: row.id, intervalMinutes: row.interval_minutes, version: row.version };
  },
  insertReceipt(db, principal, r, result) {
    cachedStatement(db, 'INSERT INTO receipts VALUES (?, ?, ?, ?, ?, ?)').run(
      ...keyOf(principal, r),
      payloadOf(r),
      resultText(result.id, result.intervalMinutes, result.version),
    );
  },
};

/** Rules 6–10 in the contract's order, with the given steps. The caller owns the transaction. */
export function runSteps(
  db: Connection,
  principal: Caller,
  r: ValidRequest,
  steps: TransactionSteps,
): Outcome {
  if (!steps.canAccess(db, principal, r)) return outcome.refused('unavailable');
  const stored = steps.findReceipt(db, principal, r);
  if (stored) return steps.answerReceipt(db, stored, r);
  const result = steps.updateRow(db, principal, r);
  if (!result) return outcome.refused('conflict');
  steps.insertReceipt(db, principal, r, result);
  return outcome.fresh(result);
}
