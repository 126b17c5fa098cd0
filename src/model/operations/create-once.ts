/**
 * `create-once`: create an invoice for a customer, with a server-assigned id. No precondition;
 * a retry must return the same invoice id, and reusing a key with another amount is refused.
 * The classic bug is a double create: a retry that inserts a second invoice.
 */
import { type CreatedRows, defineOperation, type OperationSpec } from '../operation.ts';
import { defaultPrincipals } from '../world.ts';

/** Largest invoice amount, in cents. */
export const AMOUNT_MAX = 10_000_000;

export const createOnce = defineOperation({
  name: 'create-once',
  description:
    'create an invoice for a customer; the server assigns its id; a retry returns the same one',
  tool: 'create_invoice.v1',
  scope: 'invoice:write',
  noun: 'customer',
  table: 'customers',
  rowFields: [],
  targetField: 'customerId',
  fields: [
    { name: 'customerId', rule: { kind: 'id' } },
    {
      name: 'amount',
      rule: { kind: 'integer', min: 1, max: AMOUNT_MAX },
      typical: [1, 500, 1999, 250_000, AMOUNT_MAX],
    },
  ],
  resultFields: ['invoiceId', 'customerId', 'amount'],
  payload: (a) => ({ customer: a.customerId as number, amount: a.amount as number }),
  effect: (row, a, nextId) => ({
    row,
    created: { id: nextId, customerId: row.id, amount: a.amount as number },
    result: { invoiceId: nextId, customerId: row.id, amount: a.amount as number },
  }),
  // SQLite's rowid rule, which the bundled handlers follow, so the model predicts every id;
  // `createOnceOpaque` leaves them to the server as the contract allows.
  created: {
    table: 'invoices',
    fields: ['customerId', 'amount'],
    resultId: 'invoiceId',
    ids: 'rowid',
  },
  recreated: (id, workspace) => ({ id, workspace }),
  fixture: {
    customers: [
      { id: 1, workspace: 'team-a' },
      { id: 2, workspace: 'team-a' },
      { id: 20, workspace: 'team-b' },
    ],
    invoices: [],
    principals: defaultPrincipals('invoice:write'),
    workspaces: ['team-a', 'team-b'],
  },
});

/**
 * `create-once` with ids the server assigns as it likes (UUID-like, gaps, any order): the model
 * predicts none and holds them to account only by the order-free rules of `CreatedRows.ids`.
 * Not a built-in: a plugin names this spec object to use it.
 */
export const createOnceOpaque: OperationSpec = {
  ...createOnce,
  name: 'create-once-opaque-ids',
  description: 'create-once, with invoice ids the server assigns as it likes',
  created: { ...(createOnce.created as CreatedRows), ids: 'opaque' },
};
