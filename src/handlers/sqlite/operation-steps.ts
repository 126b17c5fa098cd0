/**
 * The generic contract's transaction (CONTRACT.md, "Any operation", rules 4–8) for the SQLite
 * handlers of operations beyond set_interval, one function per rule, as `set-interval-steps.ts`
 * is for set_interval. What differs between operations (the target, the payload, the precondition,
 * the effect) comes from an `OperationSql`; the rest is the same SQL for every operation. A
 * mutant replaces one step, so its file shows only its bug.
 */
import type { OperationSpec, Payload, Result } from '../../model/operation.ts';
import { type Outcome, outcome, type RefusalReason } from '../../model/outcome.ts';
import type { Principal } from '../../model/world.ts';
import type { Connection } from '../plugin.ts';
import { canonicalText } from './receipt-store.ts';
import { cachedStatement } from './statement-cache.ts';

/** Who calls, as far as the transaction cares: the receipt key's workspace and user. */
export type Caller = Pick<Principal, 'workspace' | 'user'>;

/** A receipt row as stored: the canonical payload text and the committed result text. */
export interface StoredReceipt {
  readonly payload: string;
  readonly response: string;
}

/** A call after validation: the request id and the operation's typed arguments. */
export interface ValidCall {
  readonly requestId: string;
}

/** What one operation's SQL supplies to the generic steps. */
export interface OperationSql<R extends ValidCall> {
  /** The operation: its tool revision, scope and target table. */
  readonly spec: OperationSpec;
  /** The id of the target row the call names (the parent, for an operation that creates). */
  readonly targetOf: (r: R) => number;
  /**
   * Every target row the call names, for an operation that writes several (`otherTargets`);
   * default `[targetOf(r)]`. Access is checked for each.
   */
  readonly targetsOf?: (r: R) => readonly number[];
  /** The canonical payload a receipt binds its key to, with the model's field names. */
  readonly payloadOf: (r: R) => Payload;
  /** Rule 6, read inside the transaction: the refusal reason, or undefined when it holds. */
  readonly precondition?: (db: Connection, caller: Caller, r: R) => RefusalReason | undefined;
  /** Rule 7: applies the effect and returns the result to store and answer. */
  readonly applyEffect: (db: Connection, caller: Caller, r: R) => Result;
}

/** The transaction, one step per rule. Each runs inside the caller's transaction. */
export interface OperationSteps<R extends ValidCall> {
  /** Rule 4: whether the target row exists in the caller's workspace right now. */
  canAccess(db: Connection, caller: Caller, r: R): boolean;
  /** Rule 5: the receipt stored under the call's key, if any. */
  findReceipt(db: Connection, caller: Caller, r: R): StoredReceipt | undefined;
  /** Rule 5: the stored result replayed when the payloads match, else key reuse. */
  answerReceipt(db: Connection, stored: StoredReceipt, r: R): Outcome;
  /** Rule 6: the refusal reason, or undefined. */
  checkPrecondition(db: Connection, caller: Caller, r: R): RefusalReason | undefined;
  /** Rule 7: the effect; returns the result. */
  applyEffect(db: Connection, caller: Caller, r: R): Result;
  /** Rule 7: stores the receipt; throws a constraint error when the receipt store fails. */
  insertReceipt(db: Connection, caller: Caller, r: R, result: Result): void;
}

/** The receipt key of a call, in column order: workspace, user, tool, request id. */
export function keyOf(
  spec: OperationSpec,
  caller: Caller,
  r: ValidCall,
): [string, string, string, string] {
  return [caller.workspace, caller.user, spec.tool, r.requestId];
}

/** The stored result replayed, when `payload` is the stored one; else key reuse. */
export function answerStored(stored: StoredReceipt, payload: Payload): Outcome {
  return replayOrReuse(stored, stored.payload === canonicalText(payload));
}

/**
 * The answer to a found receipt: when the call is the same intent, a replay of `result` (by
 * default the stored one, as the contract says; mutants pass another), else key reuse.
 */
export function replayOrReuse(
  stored: StoredReceipt,
  sameIntent: boolean,
  result: () => Result = () => JSON.parse(stored.response) as Result,
): Outcome {
  return sameIntent ? outcome.replayed(result()) : outcome.keyReuse();
}

/** The payload a receipt stored, parsed. */
export function storedPayload(stored: StoredReceipt): Payload {
  return JSON.parse(stored.payload) as Payload;
}

/** The steps exactly as the contract orders them, for the operation `op`. */
export function referenceStepsOf<R extends ValidCall>(op: OperationSql<R>): OperationSteps<R> {
  const { spec } = op;
  return {
    canAccess(db, caller, r) {
      const access = cachedStatement(
        db,
        `SELECT 1 FROM ${spec.table} WHERE id = ? AND workspace_id = ?`,
      );
      const ids = op.targetsOf?.(r) ?? [op.targetOf(r)];
      return ids.every((id) => access.get(id, caller.workspace) !== undefined);
    },
    findReceipt(db, caller, r) {
      return cachedStatement(
        db,
        'SELECT payload, response FROM receipts WHERE workspace_id = ? AND user_id = ? AND tool = ? AND request_id = ?',
      ).get(...keyOf(spec, caller, r)) as StoredReceipt | undefined;
    },
    answerReceipt(_db, stored, r) {
      return answerStored(stored, op.payloadOf(r));
    },
    checkPrecondition(db, caller, r) {
      return op.precondition?.(db, caller, r);
    },
    applyEffect(db, caller, r) {
      return op.applyEffect(db, caller, r);
    },
    insertReceipt(db, caller, r, result) {
      cachedStatement(db, 'INSERT INTO receipts VALUES (?, ?, ?, ?, ?, ?)').run(
        ...keyOf(spec, caller, r),
        canonicalText(op.payloadOf(r)),
        canonicalText(result),
      );
    },
  };
}

/** Rules 4–8 in the contract's order, with the given steps. The caller owns the transaction. */
export function runOperationSteps<R extends ValidCall>(
  db: Connection,
  caller: Caller,
  r: R,
  steps: OperationSteps<R>,
): Outcome {
  if (!steps.canAccess(db, caller, r)) return outcome.refused('unavailable');
  const stored = steps.findReceipt(db, caller, r);
  if (stored) return steps.answerReceipt(db, stored, r);
  const refusal = steps.checkPrecondition(db, caller, r);
  if (refusal) return outcome.refused(refusal);
  const result = steps.applyEffect(db, caller, r);
  steps.insertReceipt(db, caller, r, result);
  return outcome.fresh(result);
}
