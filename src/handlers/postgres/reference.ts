/**
 * The reference handler on PostgreSQL: the contract in one READ COMMITTED transaction, with the
 * locks it needs taken before the first read that depends on them.
 *
 * - A transaction-scoped advisory lock on the receipt key: two first attempts with one key
 *   (whatever rows they name) cannot both miss the receipt.
 * - `FOR UPDATE` on the target row as access is checked: a move, delete or other write to the
 *   row waits until this call commits, so the version read below is the one the update sees.
 *
 * Ids and versions are compared as `bigint`: a valid one may be any safe integer, beyond
 * `INTEGER`'s range, and must then find no row rather than fail.
 *
 * The key lock is always taken before the row lock, so two calls never wait on each other in
 * opposite orders. A failed receipt insert (integrity class 23, as the failure trigger raises)
 * rolls the row change back and becomes `error`; anything else escapes for the harness.
 */
import { type Outcome, outcome } from '../../model/outcome.ts';
import { TOOL } from '../../model/world.ts';
import { precheck } from '../reference.ts';
import { keyOf, payloadOf, type ValidRequest } from '../reference-steps.ts';
import { parseResult, resultText } from '../sqlite-world.ts';
import { pgKey, toPgText } from './pg-text.ts';
import { definePostgresHandler, type PgConnection } from './plugin.ts';
import { postgresSetIntervalWorld } from './set-interval-world.ts';

/**
 * Runs `body` in a transaction: commits what it returns, rolls back on a throw. Integrity
 * failures (SQLSTATE class 23: what a failing receipt store raises) become `error`.
 */
export async function inPostgresTransaction(
  db: PgConnection,
  body: () => Promise<Outcome>,
  begin = 'BEGIN',
): Promise<Outcome> {
  await db.query(begin);
  try {
    const result = await body();
    await db.query('COMMIT');
    return result;
  } catch (thrown) {
    await db.query('ROLLBACK');
    if (isIntegrityFailure(thrown)) return outcome.error((thrown as Error).message);
    throw thrown;
  }
}

/** A PostgreSQL integrity failure (SQLSTATE class 23): a constraint, or the failure trigger. */
export function isIntegrityFailure(thrown: unknown): boolean {
  const code = (thrown as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('23');
}

/** The text an advisory lock is taken on: the receipt key as JSON (text may hold no NUL byte). */
export function keyLockText(workspace: string, user: string, requestId: string): string {
  return JSON.stringify([workspace, user, TOOL, requestId]);
}

/** Rules 6–10 on PostgreSQL, in the contract's order, inside the caller's transaction. */
export async function referenceBody(
  db: PgConnection,
  principal: { workspace: string; user: string },
  r: ValidRequest,
): Promise<Outcome> {
  await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
    keyLockText(principal.workspace, principal.user, r.requestId),
  ]);
  // `::bigint`: a request may name any safe integer, past the INTEGER column's range (absent, then).
  const access = await db.query(
    'SELECT 1 FROM automations WHERE id = $1::bigint AND workspace_id = $2 FOR UPDATE',
    [r.automationId, toPgText(principal.workspace)],
  );
  if (access.rows.length === 0) return outcome.refused('unavailable');
  const stored = await db.query<{ payload: string; response: string }>(
    'SELECT payload, response FROM receipts WHERE workspace_id = $1 AND user_id = $2 AND tool = $3 AND request_id = $4',
    pgKey(keyOf(principal, r)),
  );
  const receipt = stored.rows[0];
  if (receipt)
    return receipt.payload === payloadOf(r)
      ? outcome.replayed(parseResult(receipt.response))
      : outcome.keyReuse();
  const updated = await db.query<{ id: number; interval_minutes: number; version: number }>(
    `UPDATE automations SET interval_minutes = $1, version = version + 1
       WHERE id = $2::bigint AND workspace_id = $3 AND version = $4::bigint
       RETURNING id, interval_minutes, version`,
    [r.intervalMinutes, r.automationId, toPgText(principal.workspace), r.expectedVersion],
  );
  const row = updated.rows[0];
  if (!row) return outcome.refused('conflict');
  await db.query('INSERT INTO receipts VALUES ($1, $2, $3, $4, $5, $6)', [
    ...pgKey(keyOf(principal, r)),
    payloadOf(r),
    resultText(row.id, row.interval_minutes, row.version),
  ]);
  return outcome.fresh({ id: row.id, intervalMinutes: row.interval_minutes, version: row.version });
}

export default definePostgresHandler({
  name: 'pg-reference',
  description:
    'The contract on PostgreSQL: one READ COMMITTED transaction, an advisory lock on the receipt key, the row locked FOR UPDATE as access is checked.',
  ...postgresSetIntervalWorld,
  async call(db, principal, request) {
    const checked = precheck(principal, request);
    if ('kind' in checked) return checked;
    return inPostgresTransaction(db, () => referenceBody(db, principal, checked));
  },
});
