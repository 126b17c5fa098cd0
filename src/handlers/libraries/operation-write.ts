/**
 * The business writes of the other built-in operations (`create-once`, `adjust-balance`), written
 * the way an application behind an idempotency library writes them, as `setIntervalWrite` is for
 * `set-interval`: no keys, no receipts; current access (rule 4), the operation's precondition
 * (rule 6) and its effect (rule 7) in one `BEGIN IMMEDIATE` transaction, a refusal thrown as a
 * `Refusal`. Each returns the receipt document a library stores as its response.
 */
import type { CallRequest } from '../../model/events.ts';
import type { OperationSpec } from '../../model/operation.ts';
import type { Outcome } from '../../model/outcome.ts';
import type { Principal, Receipt } from '../../model/world.ts';
import {
  type AdjustRequest,
  adjustBalanceSql,
} from '../operations/adjust-balance/sqlite/adjust-balance-steps.ts';
import {
  createOnceSql,
  type InvoiceRequest,
} from '../operations/create-once/sqlite/create-once-steps.ts';
import type { Connection } from '../plugin.ts';
import { precheckOf } from '../sqlite/operation-handler.ts';
import {
  type Caller,
  type OperationSql,
  referenceStepsOf,
  type ValidCall,
} from '../sqlite/operation-steps.ts';
import { Refusal } from './business-write.ts';

export type { AdjustRequest, InvoiceRequest };

/** Rules 4, 6 and 7 of `op` for a validated call, in one immediate transaction (see the file comment). */
export function operationWrite<R extends ValidCall>(
  db: Connection,
  op: OperationSql<R>,
  caller: Caller,
  r: R,
): Receipt {
  const steps = referenceStepsOf(op);
  const write = db.transaction((): Receipt => {
    if (!steps.canAccess(db, caller, r)) throw new Refusal('unavailable');
    const reason = steps.checkPrecondition(db, caller, r);
    if (reason) throw new Refusal(reason);
    const result = steps.applyEffect(db, caller, r);
    return {
      workspace: caller.workspace,
      user: caller.user,
      tool: op.spec.tool,
      requestId: r.requestId,
      payload: op.payloadOf(r),
      result,
    };
  });
  return write.immediate();
}

/** `create-once`'s business write: a new invoice for a customer in the caller's workspace. */
export function createOnceWrite(db: Connection, caller: Caller, r: InvoiceRequest): Receipt {
  return operationWrite(db, createOnceSql, caller, r);
}

/** `adjust-balance`'s business write: `Refusal('insufficient')` when the balance would go below the limit. */
export function adjustBalanceWrite(db: Connection, caller: Caller, r: AdjustRequest): Receipt {
  return operationWrite(db, adjustBalanceSql, caller, r);
}

/**
 * Rules 1–2 of an operation (`createOnce`, `adjustBalance`, or one of your own): a refusal or
 * invalid outcome, or the request typed as `R` (`InvoiceRequest`, `AdjustRequest`) when the call
 * may proceed.
 */
export function operationPrecheck<R extends ValidCall>(
  spec: OperationSpec,
  principal: Principal,
  request: CallRequest,
): Outcome | R {
  return precheckOf(spec, principal, request) ?? (request as unknown as R);
}
