import type { Event } from '../../../../model/events.ts';
import { call } from '../../testing/model-agreement.ts';
import { describeReference } from '../../testing/reference-suite.ts';
import reference from './create-once-reference.ts';

const invoice = (client: number, requestId: string, customerId: unknown, amount: unknown) =>
  call(client, requestId, { customerId, amount });

/** Scripted histories the reference must agree with the model on, one per rule. */
const HISTORIES: Record<string, Event[]> = {
  'a retry after a lost response replays the same invoice': [
    { ...invoice(0, 'r1', 1, 500), delivery: 'lostResponse' },
    invoice(0, 'r1', 1, 500),
    invoice(0, 'r2', 1, 500),
  ],
  'key reuse with another amount or customer is refused': [
    invoice(0, 'r1', 1, 500),
    invoice(0, 'r1', 1, 501),
    invoice(0, 'r1', 2, 500),
  ],
  'keys are per user and per workspace': [
    invoice(0, 'r1', 1, 500),
    invoice(1, 'r1', 1, 500),
    invoice(2, 'r1', 20, 500),
    invoice(3, 'r1', 1, 500),
  ],
  'scope and validation come first': [
    invoice(5, 'r1', 1, 500),
    invoice(0, 'bad id', 1, 500),
    invoice(0, 'r1', 0, 500),
    invoice(0, 'r1', 1, 0),
    invoice(0, 'r1', 1, 10_000_001),
    invoice(0, 'r1', '1', 500),
    { kind: 'revoke', client: 0 },
    invoice(0, 'r1', 1, 500),
  ],
  'a moved or deleted customer never replays': [
    invoice(0, 'r1', 1, 500),
    { kind: 'move', resourceId: 1, workspace: 'team-b' },
    invoice(0, 'r1', 1, 500),
    invoice(2, 'r9', 1, 700),
    { kind: 'delete', resourceId: 2 },
    invoice(0, 'r2', 2, 500),
    { kind: 'recreate', resourceId: 2, workspace: 'team-a' },
    invoice(0, 'r2', 2, 500),
  ],
  'a failing receipt store rolls the invoice back, and replays still work': [
    invoice(0, 'r1', 1, 500),
    { kind: 'storeFail' },
    invoice(0, 'r2', 1, 500),
    invoice(0, 'r1', 1, 500),
    { kind: 'storeRestore' },
    invoice(0, 'r2', 1, 500),
  ],
  'a lost request changes nothing': [
    { ...invoice(0, 'r1', 1, 500), delivery: 'lostRequest' },
    invoice(0, 'r1', 1, 500),
  ],
};

describeReference('create-once', reference, HISTORIES);
