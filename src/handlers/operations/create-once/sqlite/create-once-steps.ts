/**
 * `create-once` in SQL: the customer is the target (rule 4), the payload binds customer and
 * amount, there is no precondition, and the effect inserts an invoice whose id SQLite assigns.
 * Everything else is the generic steps' (`operation-steps.ts`); mutants swap one of them.
 */
import { createOnce } from '../../../../model/operations/create-once.ts';
import type { OperationParts } from '../../../sqlite/operation-handler.ts';
import {
  type OperationSql,
  referenceStepsOf,
  type ValidCall,
} from '../../../sqlite/operation-steps.ts';
import { cachedStatement } from '../../../sqlite/statement-cache.ts';
import { createOnceWorld } from './create-once-world.ts';

/** A `create_invoice.v1` call after validation. */
export interface InvoiceRequest extends ValidCall {
  readonly customerId: number;
  readonly amount: number;
}

/** The canonical payload: the customer and the amount, the model's field names. */
export function invoicePayload(r: InvoiceRequest): { customer: number; amount: number } {
  return { customer: r.customerId, amount: r.amount };
}

/** What differs for `create-once`: the target, the payload and the insert. */
export const createOnceSql: OperationSql<InvoiceRequest> = {
  spec: createOnce,
  targetOf: (r) => r.customerId,
  payloadOf: invoicePayload,
  applyEffect(db, _caller, r) {
    const { id } = cachedStatement(
      db,
      'INSERT INTO invoices(customer_id, amount) VALUES (?, ?) RETURNING id',
    ).get(r.customerId, r.amount) as { id: number };
    return { invoiceId: id, customerId: r.customerId, amount: r.amount };
  },
};

/** The reference's steps for `create-once`. */
export const createOnceSteps = referenceStepsOf(createOnceSql);

/** The SQL and the world, for `defineOperationMutant`. */
export const createOnceParts: OperationParts<InvoiceRequest> = {
  op: createOnceSql,
  world: createOnceWorld,
};
