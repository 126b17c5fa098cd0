/**
 * The model for an operation that writes several rows (`transfer`): its targets are distinct
 * (the later field is invalid), each must be in the caller's workspace, and a fresh call writes
 * every row its effect returns, in one step with the receipt. Each rule is shown a call it
 * refuses and one it lets through.
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent } from './events.ts';
import type { OperationSpec } from './operation.ts';
import { transfer } from './operations/transfer.ts';
import { initialState, toSnapshot } from './state.ts';
import { run } from './step.ts';
import { invalidField } from './validate.ts';

const send = (client: number, requestId: string, from: unknown, to: unknown, amount: unknown) =>
  ({
    kind: 'call',
    client,
    delivery: 'delivered',
    request: { requestId, fromAccountId: from, toAccountId: to, amount },
  }) as CallEvent;

const start = () => initialState({ ...transfer.fixture, operation: 'transfer' }, transfer);

describe('an operation that writes several rows', () => {
  it('names distinct rows: the later target field naming an earlier one is invalid', () => {
    expect(invalidField(send(0, 'r1', 1, 1, 5).request, transfer)).toBe('toAccountId');
    expect(invalidField(send(0, 'r1', 1, 2, 5).request, transfer)).toBeUndefined();
    // In validation order: with the payee first, the debited account is the later field.
    const payeeFirst: OperationSpec = {
      ...transfer,
      fields: [
        transfer.fields[1],
        transfer.fields[0],
        transfer.fields[2],
      ] as OperationSpec['fields'],
    };
    expect(invalidField(send(0, 'r1', 1, 1, 5).request, payeeFirst)).toBe('fromAccountId');
  });

  it('needs every target in the caller’s workspace, and writes every row it changes', () => {
    const { state, outcomes } = run(start(), [
      send(0, 'r1', 1, 20, 300),
      send(0, 'r2', 1, 999, 300),
      send(0, 'r3', 1, 2, 300),
      send(0, 'r4', 2, 3, 2000),
    ]);
    expect(outcomes).toEqual([
      { kind: 'refused', reason: 'unavailable' },
      { kind: 'refused', reason: 'unavailable' },
      {
        kind: 'ok',
        replayed: false,
        result: { fromAccountId: 1, fromBalance: 700, toAccountId: 2, toBalance: 1300 },
      },
      { kind: 'refused', reason: 'insufficient' },
    ]);
    expect(toSnapshot(state).accounts).toEqual([
      { id: 1, workspace: 'team-a', balance: 700 },
      { id: 2, workspace: 'team-a', balance: 1300 },
      { id: 3, workspace: 'team-a', balance: 1000 },
      { id: 20, workspace: 'team-b', balance: 1000 },
      { id: 21, workspace: 'team-b', balance: 1000 },
    ]);
    expect(toSnapshot(state).receipts).toHaveLength(1);
  });
});
