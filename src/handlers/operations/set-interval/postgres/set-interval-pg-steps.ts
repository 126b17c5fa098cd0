/**
 * The PostgreSQL reference's transaction one step per rule: the reference (`set-interval-pg-reference.ts`) is
 * `stepsHandler` with `REFERENCE_STEPS`, and each PostgreSQL mutant replaces a step or two, so its
 * file shows only its bug. Text parameters go through `pg-text.ts`, as the world stores them.
 */
import { type Outcome, outcome } from '../../../../model/outcome.ts';
import type { CallResult } from '../../../../model/world.ts';
import { pgKey, toPgText } from '../../../postgres/pg-text.ts';
import {
  definePostgresHandler,
  type PgConnection,
  type PostgresHandlerPlugin,
} from '../../../postgres/plugin.ts';
import { isIntegrityFailure, keyLockText } from '../../../postgres/transaction.ts';
import { precheck } from '../sqlite/set-interval-reference.ts';
import { type Caller, keyOf, payloadOf, type ValidRequest } from '../sqlite/set-interval-steps.ts';
import { parseResult, resultText } from '../sqlite/set-interval-world.ts';
import { postgresSetIntervalWorld } from './set-interval-pg-world.ts';

/** The reference's transaction on PostgreSQL, one step per rule. */
export interface PgSteps {
  /** The statement that opens the transaction. */
  readonly begin: string;
  /** Before the first read: the lock on the receipt key. */
  lockKey(db: PgConnection, principal: Caller, r: ValidRequest): Promise<void>;
  /** Rule 6: whether the automation is in the principal's workspace (the reference locks the row here). */
  canAccess(db: PgConnection, principal: Caller, r: ValidRequest): Promise<boolean>;
  /** Rule 7: the answer a stored receipt gives (replay or key reuse), or undefined when there is none. */
  answerReceipt(db: PgConnection, principal: Caller, r: ValidRequest): Promise<Outcome | undefined>;
  /** Rules 8–9: the versioned update; the new row, or the refusal. */
  updateRow(db: PgConnection, principal: Caller, r: ValidRequest): Promise<CallResult | Outcome>;
  /** Rule 10: stores the receipt; throws the store's integrity error when it fails. */
  insertReceipt(
    db: PgConnection,
    principal: Caller,
    r: ValidRequest,
    result: CallResult,
  ): Promise<void>;
  /** Right before COMMIT, knowing the answer the call will give (nothing in the reference). */
  beforeCommit(
    db: PgConnection,
    principal: Caller,
    r: ValidRequest,
    answer: Outcome,
  ): Promise<void>;
  /** After a ROLLBACK (nothing in the reference). */
  afterRollback(db: PgConnection, principal: Caller, r: ValidRequest): Promise<void>;
}

/** The steps exactly as the reference takes them. */
export const REFERENCE_STEPS: PgSteps = {
  begin: 'BEGIN',
  async lockKey(db, principal, r) {
    await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
      keyLockText(principal.workspace, principal.user, r.requestId),
    ]);
  },
  async canAccess(db, principal, r) {
    const access = await db.query(
      'SELECT 1 FROM automations WHERE id = $1::bigint AND workspace_id = $2 FOR UPDATE',
      [r.automationId, toPgText(principal.workspace)],
    );
    return access.rows.length > 0;
  },
  answerReceipt: readReceipt,
  async updateRow(db, principal, r) {
    const updated = await db.query<{ id: number; interval_minutes: number; version: number }>(
      `UPDATE automations SET interval_minutes = $1, version = version + 1
       WHERE id = $2::bigint AND workspace_id = $3 AND version = $4::bigint
       RETURNING id, interval_minutes, version`,
      [r.intervalMinutes, r.automationId, toPgText(principal.workspace), r.expectedVersion],
    );
    const row = updated.rows[0];
    if (!row) return outcome.refused('conflict');
    return { id: row.id, intervalMinutes: row.interval_minutes, version: row.version };
  },
  async insertReceipt(db, principal, r, result) {
    await db.query('INSERT INTO receipts VALUES ($1, $2, $3, $4, $5, $6)', [
      ...pgKey(keyOf(principal, r)),
      payloadOf(r),
      resultText(result.id, result.intervalMinutes, result.version),
    ]);
  },
  async beforeCommit() {},
  async afterRollback() {},
};

/** Rule 6 with no row lock: what a handler that trusts its isolation level (or a later lock) reads. */
export async function unlockedAccess(
  db: PgConnection,
  principal: Caller,
  r: ValidRequest,
): Promise<boolean> {
  const access = await db.query(
    'SELECT 1 FROM automations WHERE id = $1::bigint AND workspace_id = $2',
    [r.automationId, toPgText(principal.workspace)],
  );
  return access.rows.length > 0;
}

/** Rule 7 as the reference reads it: the receipt under the key, replayed or refused as key reuse. */
export async function readReceipt(
  db: PgConnection,
  principal: Caller,
  r: ValidRequest,
): Promise<Outcome | undefined> {
  const stored = await db.query<{ payload: string; response: string }>(
    'SELECT payload, response FROM receipts WHERE workspace_id = $1 AND user_id = $2 AND tool = $3 AND request_id = $4',
    pgKey(keyOf(principal, r)),
  );
  const receipt = stored.rows[0];
  if (!receipt) return undefined;
  return receipt.payload === payloadOf(r)
    ? outcome.replayed(parseResult(receipt.response))
    : outcome.keyReuse();
}

/** Rules 6–10 with `steps`, in the reference's order, in one transaction (as `inPostgresTransaction`). */
export async function runPgSteps(
  steps: PgSteps,
  db: PgConnection,
  principal: Caller,
  r: ValidRequest,
): Promise<Outcome> {
  await db.query(steps.begin);
  try {
    const answer = await body(steps, db, principal, r);
    await steps.beforeCommit(db, principal, r, answer);
    await db.query('COMMIT');
    return answer;
  } catch (thrown) {
    await db.query('ROLLBACK');
    await steps.afterRollback(db, principal, r);
    if (isIntegrityFailure(thrown)) return outcome.error((thrown as Error).message);
    throw thrown;
  }
}

async function body(
  steps: PgSteps,
  db: PgConnection,
  principal: Caller,
  r: ValidRequest,
): Promise<Outcome> {
  await steps.lockKey(db, principal, r);
  if (!(await steps.canAccess(db, principal, r))) return outcome.refused('unavailable');
  const replay = await steps.answerReceipt(db, principal, r);
  if (replay) return replay;
  const row = await steps.updateRow(db, principal, r);
  if ('kind' in row) return row;
  await steps.insertReceipt(db, principal, r, row);
  return outcome.fresh(row);
}

/** A `set_interval` plugin on PostgreSQL whose call runs `steps`; `world` overrides world functions. */
export function stepsHandler(
  name: string,
  description: string,
  steps: PgSteps,
  world: Partial<PostgresHandlerPlugin> = {},
): PostgresHandlerPlugin {
  return definePostgresHandler({
    name,
    description,
    ...postgresSetIntervalWorld,
    ...world,
    async call(db, principal, request) {
      const checked = precheck(principal, request);
      if ('kind' in checked) return checked;
      return runPgSteps(steps, db, principal, checked);
    },
  });
}
