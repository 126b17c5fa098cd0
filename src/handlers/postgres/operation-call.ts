/**
 * The generic contract's transaction (CONTRACT.md, "Any operation", rules 4–8) on PostgreSQL,
 * for the operations beyond set_interval, with the locking `set-interval-pg-reference.ts` explains: an advisory
 * transaction lock on the receipt key first, then the target row `FOR UPDATE` as access is
 * checked, so two first attempts with one key cannot both miss the receipt, and the row the
 * precondition and the effect read cannot change underneath them. What differs between
 * operations comes from a `PostgresOperationSql`. The target id is compared as `bigint`: a valid
 * id may be any safe integer.
 */
import type { CallRequest } from '../../model/events.ts';
import type { OperationSpec, Payload, Result } from '../../model/operation.ts';
import { type Outcome, outcome, type RefusalReason } from '../../model/outcome.ts';
import type { Principal } from '../../model/world.ts';
import { precheckOf } from '../sqlite/operation-handler.ts';
import { type Caller, keyOf, type ValidCall } from '../sqlite/operation-steps.ts';
import { canonicalText } from '../sqlite/receipt-store.ts';
import { pgKey, toPgText } from './pg-text.ts';
import type { PgConnection } from './plugin.ts';
import { inPostgresTransaction } from './transaction.ts';

/** What one operation's PostgreSQL SQL supplies to the generic steps. */
export interface PostgresOperationSql<R extends ValidCall> {
  readonly spec: OperationSpec;
  /** The id of the target row the call names (the parent, for an operation that creates). */
  readonly targetOf: (r: R) => number;
  /**
   * Every target row the call names, for an operation that writes several (`otherTargets`);
   * default `[targetOf(r)]`. They are locked in ascending id order, whatever order the call
   * names them in, so two calls naming the same rows the other way round cannot deadlock.
   */
  readonly targetsOf?: (r: R) => readonly number[];
  /** The order the targets are locked in; default ascending (`lockOrder`). Mutants change it. */
  readonly orderLocks?: (ids: readonly number[]) => readonly number[];
  /** The canonical payload a receipt binds its key to, with the model's field names. */
  readonly payloadOf: (r: R) => Payload;
  /** Rule 6, read inside the transaction (the target row is locked): the refusal, or undefined. */
  readonly precondition?: (
    db: PgConnection,
    caller: Caller,
    r: R,
  ) => Promise<RefusalReason | undefined>;
  /** Rule 7: applies the effect and returns the result to store and answer. */
  readonly applyEffect: (db: PgConnection, caller: Caller, r: R) => Promise<Result>;
}

/** A PostgreSQL plugin's `call` for `op`: the prechecks, then one transaction of rules 4–8. */
export function postgresOperationCall<R extends ValidCall>(
  op: PostgresOperationSql<R>,
): (db: PgConnection, principal: Principal, request: CallRequest) => Promise<Outcome> {
  return async (db, principal, request) =>
    precheckOf(op.spec, principal, request) ??
    inPostgresTransaction(db, () =>
      postgresOperationBody(db, principal, request as unknown as R, op),
    );
}

/** `ids` in ascending order: the one order every call locks rows in. */
export function lockOrder(ids: readonly number[]): number[] {
  return [...ids].sort((a, b) => a - b);
}

/**
 * Rule 4 with the rows locked `FOR UPDATE`, one by one in the order given: whether every row
 * exists in the caller's workspace. Stops at the first that does not.
 */
export async function lockTargets(
  db: PgConnection,
  caller: Caller,
  ids: readonly number[],
  spec: OperationSpec,
): Promise<boolean> {
  for (const id of ids) {
    const access = await db.query(
      `SELECT 1 FROM ${spec.table} WHERE id = $1::bigint AND workspace_id = $2 FOR UPDATE`,
      [id, toPgText(caller.workspace)],
    );
    if (access.rows.length === 0) return false;
  }
  return true;
}

/**
 * Rules 4–8 up to the effect, inside the caller's transaction: the key's advisory lock, the
 * targets locked and checked, the stored receipt's answer, the precondition. The answer when one
 * of them decides the call; undefined when the effect is to be applied.
 */
export async function answerBeforeEffect<R extends ValidCall>(
  db: PgConnection,
  caller: Caller,
  r: R,
  op: PostgresOperationSql<R>,
): Promise<Outcome | undefined> {
  const key = keyOf(op.spec, caller, r);
  await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [JSON.stringify(key)]);
  const targets = op.targetsOf?.(r) ?? [op.targetOf(r)];
  if (!(await lockTargets(db, caller, (op.orderLocks ?? lockOrder)(targets), op.spec)))
    return outcome.refused('unavailable');
  const stored = await db.query<{ payload: string; response: string }>(
    'SELECT payload, response FROM receipts WHERE workspace_id = $1 AND user_id = $2 AND tool = $3 AND request_id = $4',
    pgKey(key),
  );
  const receipt = stored.rows[0];
  if (receipt)
    return receipt.payload === canonicalText(op.payloadOf(r))
      ? outcome.replayed(JSON.parse(receipt.response) as Result)
      : outcome.keyReuse();
  const refusal = await op.precondition?.(db, caller, r);
  return refusal ? outcome.refused(refusal) : undefined;
}

/** Rules 4–8 in the contract's order, inside the caller's transaction. */
export async function postgresOperationBody<R extends ValidCall>(
  db: PgConnection,
  caller: Caller,
  r: R,
  op: PostgresOperationSql<R>,
): Promise<Outcome> {
  const answered = await answerBeforeEffect(db, caller, r, op);
  if (answered) return answered;
  const key = keyOf(op.spec, caller, r);
  const result = await op.applyEffect(db, caller, r);
  await db.query('INSERT INTO receipts VALUES ($1, $2, $3, $4, $5, $6)', [
    ...pgKey(key),
    canonicalText(op.payloadOf(r)),
    canonicalText(result),
  ]);
  return outcome.fresh(result);
}
