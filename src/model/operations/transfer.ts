/**
 * `transfer`: move an amount from one account to another, both in the principal's workspace, in
 * one transaction. An operation that writes two rows: the debit and the credit commit together
 * with the receipt, or not at all. The precondition keeps the debited balance at or above 0,
 * else the call is refused as `insufficient`; a transfer from an account to itself is invalid
 * input (its `toAccountId`). The bugs to catch are a leg applied twice, legs in two
 * transactions, and two transfers locking their accounts in opposite orders.
 */
import { defineOperation, type Row } from '../operation.ts';
import { defaultPrincipals } from '../world.ts';

/** Largest amount one transfer moves, in cents. */
export const TRANSFER_MAX = 1_000_000;

/** The balance every fixture account and every re-created account starts with. */
export const TRANSFER_OPENING_BALANCE = 1000;

export const transfer = defineOperation({
  name: 'transfer',
  description:
    'move an amount between two accounts of a workspace in one transaction; refused as insufficient below 0',
  tool: 'transfer.v1',
  scope: 'account:write',
  noun: 'account',
  table: 'accounts',
  rowFields: ['balance'],
  targetField: 'fromAccountId',
  otherTargets: ['toAccountId'],
  fields: [
    { name: 'fromAccountId', rule: { kind: 'id' } },
    { name: 'toAccountId', rule: { kind: 'id' } },
    {
      name: 'amount',
      rule: { kind: 'integer', min: 1, max: TRANSFER_MAX },
      typical: [1, 250, 700, 1000, 1500, TRANSFER_MAX],
    },
  ],
  resultFields: ['fromAccountId', 'fromBalance', 'toAccountId', 'toBalance'],
  payload: (a) => ({
    from: a.fromAccountId as number,
    to: a.toAccountId as number,
    amount: a.amount as number,
  }),
  precondition: (from, a) =>
    (from.balance as number) - (a.amount as number) < 0 ? 'insufficient' : undefined,
  refusals: ['insufficient'],
  effect: (from, a, _nextId, others) => {
    const to = others[0] as Row;
    const amount = a.amount as number;
    const debited = { ...from, balance: (from.balance as number) - amount };
    const credited = { ...to, balance: (to.balance as number) + amount };
    return {
      row: debited,
      others: [credited],
      result: {
        fromAccountId: debited.id,
        fromBalance: debited.balance,
        toAccountId: credited.id,
        toBalance: credited.balance,
      },
    };
  },
  recreated: (id, workspace) => ({ id, workspace, balance: TRANSFER_OPENING_BALANCE }),
  fixture: {
    accounts: [
      { id: 1, workspace: 'team-a', balance: TRANSFER_OPENING_BALANCE },
      { id: 2, workspace: 'team-a', balance: TRANSFER_OPENING_BALANCE },
      { id: 3, workspace: 'team-a', balance: TRANSFER_OPENING_BALANCE },
      { id: 20, workspace: 'team-b', balance: TRANSFER_OPENING_BALANCE },
      { id: 21, workspace: 'team-b', balance: TRANSFER_OPENING_BALANCE },
    ],
    principals: defaultPrincipals('account:write'),
    workspaces: ['team-a', 'team-b'],
  },
});
