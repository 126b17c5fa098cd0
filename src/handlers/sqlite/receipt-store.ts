/**
 * The receipt store every operation's SQLite handlers share: the `receipts` table keyed by
 * (workspace, user, tool revision, request id), the switch that makes it fail on demand, and
 * the parsing of its rows back into the model's receipts. Payload and response are stored as
 * canonical JSON (keys sorted) of the model's own field names, so parsing is one generic step.
 */
import type { Payload, Result } from '../../model/operation.ts';
import { compareReceiptKeys, type Receipt } from '../../model/world.ts';
import type { Connection } from '../plugin.ts';
import { cachedStatement } from './statement-cache.ts';
import { flagDdl, storeDown, storeUp, triggerDdl } from './store-switch.ts';

/** The message a failing receipt store raises (the model's `STORE_FAILURE_MESSAGE`). */
export { STORE_FAILURE } from './store-switch.ts';

/** The receipts table, the same for every operation, with its failure switch (store up). */
export const RECEIPTS_DDL = `
${flagDdl('receipts')}
CREATE TABLE receipts(
  workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, tool TEXT NOT NULL,
  request_id TEXT NOT NULL, payload TEXT NOT NULL, response TEXT NOT NULL,
  PRIMARY KEY(workspace_id, user_id, tool, request_id));
${triggerDdl('receipts', ['INSERT'])}
`;

/** Makes every receipt insert fail, until `restoreReceipts`: a row write. Idempotent. */
export function failReceipts(db: Connection): void {
  storeDown(db, 'receipts', ['INSERT']);
}

/** Lets receipt inserts succeed again. Idempotent. */
export function restoreReceipts(db: Connection): void {
  storeUp(db, 'receipts');
}

/**
 * A payload or result as stored: JSON with its keys sorted, so two equal objects built in
 * different orders give the same text and a payload comparison is a string comparison.
 */
export function canonicalText(value: Payload | Result): string {
  const sorted = Object.keys(value)
    .sort()
    .map((k) => [k, value[k]]);
  return JSON.stringify(Object.fromEntries(sorted));
}

/** Every stored receipt, parsed back to the model's shape and in the model's order. */
export function readReceipts(db: Connection): Receipt[] {
  const rows = cachedStatement(
    db,
    `SELECT workspace_id AS workspace, user_id AS user, tool, request_id AS requestId,
       payload, response FROM receipts`,
  ).all() as (Omit<Receipt, 'payload' | 'result'> & { payload: string; response: string })[];
  return rows
    .map(({ payload, response, ...key }) => ({
      ...key,
      payload: JSON.parse(payload) as Payload,
      result: JSON.parse(response) as Result,
    }))
    .sort(compareReceiptKeys);
}
