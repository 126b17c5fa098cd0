import type { Event } from '../../../../model/events.ts';
import { call } from '../../testing/model-agreement.ts';
import { describeReference } from '../../testing/reference-suite.ts';
import reference from './transfer-reference.ts';

const move = (client: number, requestId: string, from: unknown, to: unknown, amount: unknown) =>
  call(client, requestId, { fromAccountId: from, toAccountId: to, amount });

/** Scripted histories the reference must agree with the model on, one per rule. */
const HISTORIES: Record<string, Event[]> = {
  'a retry after a lost response replays the stored balances': [
    { ...move(0, 'r1', 1, 2, 300), delivery: 'lostResponse' },
    move(0, 'r2', 2, 1, 100),
    move(0, 'r1', 1, 2, 300),
  ],
  'a retry of a transfer that emptied the account still replays': [
    move(0, 'r1', 1, 2, 1000),
    move(0, 'r1', 1, 2, 1000),
    move(0, 'r2', 1, 3, 1),
  ],
  'key reuse with another payee or amount is refused': [
    move(0, 'r1', 1, 2, 100),
    move(0, 'r1', 1, 3, 100),
    move(0, 'r1', 1, 2, 200),
  ],
  'both accounts must be in the caller’s workspace': [
    move(0, 'r1', 1, 20, 100),
    move(0, 'r2', 20, 1, 100),
    move(0, 'r3', 1, 999, 100),
    move(2, 'r4', 20, 21, 100),
  ],
  'scope and validation come first; a transfer to itself is invalid': [
    move(5, 'r1', 1, 2, 100),
    move(0, 'r1', 1, 1, 100),
    move(0, 'r1', 1, 2, 0),
    move(0, 'r1', 1, '2', 100),
    move(0, 'r1', -1, 2, 100),
  ],
  'a moved, deleted or re-created payee never replays': [
    move(0, 'r1', 1, 2, 100),
    { kind: 'move', resourceId: 2, workspace: 'team-b' },
    move(0, 'r1', 1, 2, 100),
    { kind: 'move', resourceId: 2, workspace: 'team-a' },
    { kind: 'delete', resourceId: 2 },
    move(0, 'r1', 1, 2, 100),
    { kind: 'recreate', resourceId: 2, workspace: 'team-a' },
    move(0, 'r1', 1, 2, 100),
    move(0, 'r2', 1, 2, 100),
  ],
  'a failing receipt store rolls both legs back, and replays still work': [
    move(0, 'r1', 1, 2, 100),
    { kind: 'storeFail' },
    move(0, 'r2', 1, 2, 100),
    move(0, 'r1', 1, 2, 100),
    move(0, 'r3', 1, 2, 5000),
    { kind: 'storeRestore' },
    move(0, 'r2', 1, 2, 100),
  ],
};

describeReference('transfer', reference, HISTORIES);
