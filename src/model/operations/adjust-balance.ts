/**
 * `adjust-balance`: add a signed amount to an account's balance. A non-idempotent effect: every
 * double application shows in the total. The precondition keeps the balance at or above the
 * negated overdraft limit (0 by default), else the call is refused as `insufficient`.
 */
import { defineOperation, type OperationSpec } from '../operation.ts';
import { defaultPrincipals } from '../world.ts';

/** Largest absolute delta, in cents. */
export const DELTA_MAX = 1_000_000;

/** The balance every fixture account and every re-created account starts with. */
export const OPENING_BALANCE = 1000;

/** The `adjust-balance` spec with an overdraft limit of `overdraft` cents (default 0). */
export function adjustBalanceWith(overdraft = 0): OperationSpec {
  return defineOperation({
    name: overdraft === 0 ? 'adjust-balance' : `adjust-balance-overdraft-${overdraft}`,
    description:
      'add a signed amount to an account balance; refused as insufficient below the limit',
    tool: 'adjust_balance.v1',
    scope: 'account:write',
    noun: 'account',
    table: 'accounts',
    rowFields: ['balance'],
    targetField: 'accountId',
    fields: [
      { name: 'accountId', rule: { kind: 'id' } },
      {
        name: 'delta',
        rule: { kind: 'integer', min: -DELTA_MAX, max: DELTA_MAX, nonZero: true },
        typical: [-DELTA_MAX, -1500, -700, -1, 1, 250, 1000, DELTA_MAX],
      },
    ],
    resultFields: ['accountId', 'balance'],
    payload: (a) => ({ account: a.accountId as number, delta: a.delta as number }),
    precondition: (row, a) =>
      (row.balance as number) + (a.delta as number) < -overdraft ? 'insufficient' : undefined,
    refusals: ['insufficient'],
    effect: (row, a) => {
      const balance = (row.balance as number) + (a.delta as number);
      return { row: { ...row, balance }, result: { accountId: row.id, balance } };
    },
    recreated: (id, workspace) => ({ id, workspace, balance: OPENING_BALANCE }),
    fixture: {
      accounts: [
        { id: 1, workspace: 'team-a', balance: OPENING_BALANCE },
        { id: 2, workspace: 'team-a', balance: OPENING_BALANCE },
        { id: 20, workspace: 'team-b', balance: OPENING_BALANCE },
      ],
      principals: defaultPrincipals('account:write'),
      workspaces: ['team-a', 'team-b'],
    },
  });
}

export const adjustBalance = adjustBalanceWith();
