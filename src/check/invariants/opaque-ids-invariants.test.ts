/**
 * "Every effect has its receipt" with server-assigned ids the model does not predict
 * (`createOnceOpaque`), in a pass/fail pair: a create that crashed after its commit is held to the
 * id its receipt stores.
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent, CallRequest } from '../../model/events.ts';
import { createOnceOpaque } from '../../model/operations/create-once.ts';
import { registerOperation } from '../../model/operations/index.ts';
import { outcome, SERVER_ASSIGNED } from '../../model/outcome.ts';
import type { Receipt } from '../../model/world.ts';
import type { RunRecord } from '../run-record.ts';
import { checkInvariants } from './all-invariants.ts';
import { checkEffectsMatchReceipts, EFFECTS_MATCH_RECEIPTS } from './effects-match-receipts.ts';

const call = (client: number, request: CallRequest): CallEvent => ({
  kind: 'call',
  client,
  delivery: 'delivered',
  request,
});
const fixtureOf = () => ({ ...createOnceOpaque.fixture, operation: createOnceOpaque.name });

describe('invariant checkers for create-once with opaque ids', () => {
  // A call that crashed after its commit got no answer: the checker reads it with the model's
  // outcome, whose invoice id is unknown. The server's id is in the receipt and the invoice row.
  const crashed = (invoiceId: number, rowId: number): RunRecord => {
    registerOperation(createOnceOpaque);
    const fixture = fixtureOf();
    const request = { requestId: 'r1', customerId: 1, amount: 500 };
    const receipt: Receipt = {
      workspace: 'team-a',
      user: 'alice',
      tool: createOnceOpaque.tool,
      requestId: 'r1',
      payload: createOnceOpaque.payload(request),
      result: { invoiceId, customerId: 1, amount: 500 },
    };
    const readAs = outcome.fresh({ invoiceId: SERVER_ASSIGNED, customerId: 1, amount: 500 });
    return {
      spec: createOnceOpaque,
      fixture,
      steps: [call(0, request)],
      trace: {
        observations: [{ step: 0, lane: 0, event: call(0, request), observed: readAs }],
        snapshot: {
          ...fixture,
          invoices: [{ id: rowId, customerId: 1, amount: 500 }],
          receipts: [receipt],
        },
      },
    };
  };

  it('ok: a create that crashed after its commit, its invoice and receipt under the server’s id', () => {
    expect(checkInvariants(crashed(41, 41))).toEqual([]);
  });

  it('bad: the same, with the receipt naming an invoice that does not exist', () => {
    expect(checkEffectsMatchReceipts(crashed(41, 42))?.invariant).toBe(EFFECTS_MATCH_RECEIPTS);
  });
});
