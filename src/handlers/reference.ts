/**
 * The reference handler: the contract on better-sqlite3, as the article builds it. One
 * `BEGIN IMMEDIATE` transaction takes the write lock before the first read, so two first
 * attempts cannot both miss the receipt; current access is checked before the receipt, and
 * the receipt before the version. A failed receipt insert rolls the row change back.
 */
import type { CallRequest } from '../model/events.ts';
import { type Outcome, outcome } from '../model/outcome.ts';
import { invalidField } from '../model/validate.ts';
import { type Principal, TOOL, WRITE_SCOPE } from '../model/world.ts';
import { type Connection, defineHandler } from './plugin.ts';
import { canonicalPayload, resultText, sqliteWorld } from './sqlite-world.ts';
import { cachedStatement } from './statement-cache.ts';

/** The arguments after validation. */
export interface ValidRequest {
  readonly requestId: string;
  readonly automationId: number;
  readonly expectedVersion: number;
  readonly intervalMinutes: number;
}

/** Rules 1–4: scope and validation, before any SQL. Returns a refusal, or the typed request. */
export function precheck(principal: Principal, request: CallRequest): Outcome | ValidRequest {
  if (!principal.scopes.includes(WRITE_SCOPE)) return outcome.refused('forbidden');
  const field = invalidField(request);
  if (field) return outcome.invalid(field);
  return request as ValidRequest;
}

/** Rules 6–11 inside one write transaction the caller has already begun. */
export function transactionBody(db: Connection, principal: Principal, r: ValidRequest): Outcome {
  const visible = cachedStatement(
    db,
    'SELECT 1 FROM automations WHERE id = ? AND workspace_id = ?',
  ).get(r.automationId, principal.workspace);
  if (!visible) return outcome.refused('unavailable');

  const payload = canonicalPayload(r.automationId, r.expectedVersion, r.intervalMinutes);
  const key = [principal.workspace, principal.user, TOOL, r.requestId];
  const old = cachedStatement(
    db,
    'SELECT payload, response FROM receipts WHERE workspace_id = ? AND user_id = ? AND tool = ? AND request_id = ?',
  ).get(...key) as { payload: string; response: string } | undefined;
  if (old) {
    if (old.payload !== payload) return outcome.keyReuse();
    return outcome.replayed(parseResult(old.response));
  }

  const row = cachedStatement(
    db,
    `UPDATE automations SET interval_minutes = ?, version = version + 1
       WHERE id = ? AND workspace_id = ? AND version = ?
       RETURNING id, interval_minutes, version`,
  ).get(r.intervalMinutes, r.automationId, principal.workspace, r.expectedVersion) as
    | { id: number; interval_minutes: number; version: number }
    | undefined;
  if (!row) return outcome.refused('conflict');
  const response = resultText(row.id, row.interval_minutes, row.version);
  cachedStatement(db, 'INSERT INTO receipts VALUES (?, ?, ?, ?, ?, ?)').run(
    ...key,
    payload,
    response,
  );
  return outcome.fresh({ id: row.id, intervalMinutes: row.interval_minutes, version: row.version });
}

/** Parses a stored response back into a result. */
export function parseResult(text: string): {
  id: number;
  intervalMinutes: number;
  version: number;
} {
  const r = JSON.parse(text) as { id: number; interval_minutes: number; version: number };
  return { id: r.id, intervalMinutes: r.interval_minutes, version: r.version };
}

/**
 * Runs `body` in a `BEGIN IMMEDIATE` transaction: commits what it returns, rolls back on a throw.
 * A failing write inside maps to `error` (the receipt store failing is the expected case);
 * anything else, such as SQLITE_BUSY, escapes for the harness to report.
 */
export function inImmediateTransaction(db: Connection, body: () => Outcome): Outcome {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = body();
    db.exec('COMMIT');
    return result;
  } catch (thrown) {
    if (db.inTransaction) db.exec('ROLLBACK');
    if (isWriteFailure(thrown)) return outcome.error((thrown as Error).message);
    throw thrown;
  }
}

/** A constraint or trigger failure of a write: what a failing receipt store looks like. */
export function isWriteFailure(thrown: unknown): boolean {
  const code = (thrown as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT');
}

export default defineHandler({
  name: 'reference',
  description:
    'The contract as written: one BEGIN IMMEDIATE transaction, access, receipt, version, write.',
  ...sqliteWorld,
  call(db, principal, request) {
    const checked = precheck(principal, request);
    if ('kind' in checked) return checked;
    return inImmediateTransaction(db, () => transactionBody(db, principal, checked));
  },
});
