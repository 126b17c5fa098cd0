import type { Event } from '../../../../model/events.ts';
import { call } from '../../testing/model-agreement.ts';
import { describeReference } from '../../testing/reference-suite.ts';
import reference from './adjust-balance-reference.ts';

const adjust = (client: number, requestId: string, accountId: unknown, delta: unknown) =>
  call(client, requestId, { accountId, delta });

/** Scripted histories the reference must agree with the model on, one per rule. */
const HISTORIES: Record<string, Event[]> = {
  'a retry after a lost response replays the stored balance': [
    { ...adjust(0, 'r1', 1, 250), delivery: 'lostResponse' },
    adjust(0, 'r2', 1, 100),
    adjust(0, 'r1', 1, 250),
  ],
  'a retry of a debit that emptied the account still replays': [
    adjust(0, 'r1', 1, -700),
    adjust(0, 'r1', 1, -700),
    adjust(0, 'r2', 1, -700),
  ],
  'the balance never goes below zero': [
    adjust(0, 'r1', 1, -1000),
    adjust(0, 'r2', 1, -1),
    adjust(0, 'r3', 2, -1500),
  ],
  'key reuse with another delta or account is refused': [
    adjust(0, 'r1', 1, 100),
    adjust(0, 'r1', 1, -100),
    adjust(0, 'r1', 2, 100),
  ],
  'keys are per user and per workspace': [
    adjust(0, 'r1', 1, 100),
    adjust(1, 'r1', 1, 100),
    adjust(2, 'r1', 20, 100),
  ],
  'scope and validation come first': [
    adjust(5, 'r1', 1, 100),
    adjust(6, 'r1', 20, 100),
    adjust(0, 'r1', 1, 0),
    adjust(0, 'r1', 1, 1_000_001),
    adjust(0, 'r1', 1, 2.5),
    adjust(0, 'r1', -1, 5),
  ],
  'a moved, deleted or re-created account never replays': [
    adjust(0, 'r1', 1, 100),
    { kind: 'move', resourceId: 1, workspace: 'team-b' },
    adjust(0, 'r1', 1, 100),
    { kind: 'move', resourceId: 1, workspace: 'team-a' },
    { kind: 'delete', resourceId: 1 },
    adjust(0, 'r1', 1, 100),
    { kind: 'recreate', resourceId: 1, workspace: 'team-a' },
    adjust(0, 'r1', 1, 100),
    adjust(0, 'r2', 1, 100),
  ],
  'a failing receipt store rolls the update back, and replays still work': [
    adjust(0, 'r1', 1, 100),
    { kind: 'storeFail' },
    adjust(0, 'r2', 1, 100),
    adjust(0, 'r1', 1, 100),
    adjust(0, 'r3', 1, -5000),
    { kind: 'storeRestore' },
    adjust(0, 'r2', 1, 100),
  ],
};

describeReference('adjust-balance', reference, HISTORIES);
