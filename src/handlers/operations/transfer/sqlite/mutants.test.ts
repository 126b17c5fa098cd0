import type { Event } from '../../../../model/events.ts';
import { call, type Divergence } from '../../testing/model-agreement.ts';
import { describeMutants, type Kill } from '../../testing/mutant-suite.ts';

const move = (client: number, requestId: string, from: number, to: number, amount: number) =>
  call(client, requestId, { fromAccountId: from, toAccountId: to, amount });

const kill = (at: Pick<Divergence, 'step' | 'reason'>, ...events: Event[]): Kill => ({
  events,
  at,
});

/** Per sequential mutant: the shortest history that shows its bug, and where it shows. */
const KILLS: Record<string, Kill> = {
  'transfer-credit-replayed': kill(
    { step: 1, reason: 'snapshot' },
    move(0, 'r1', 1, 2, 300),
    move(0, 'r1', 1, 2, 300),
  ),
  'transfer-legs-in-two-transactions': kill(
    { step: 1, reason: 'snapshot' },
    { kind: 'storeFail' },
    move(0, 'r1', 1, 2, 300),
  ),
  'transfer-payee-unchecked': kill({ step: 0, reason: 'outcome' }, move(0, 'r1', 1, 20, 300)),
  'transfer-fingerprint-without-payee': kill(
    { step: 1, reason: 'outcome' },
    move(0, 'r1', 1, 2, 300),
    move(0, 'r1', 1, 3, 300),
  ),
  'transfer-access-after-receipt': kill(
    { step: 2, reason: 'outcome' },
    move(0, 'r1', 1, 2, 300),
    { kind: 'delete', resourceId: 2 },
    move(0, 'r1', 1, 2, 300),
  ),
  'transfer-key-without-user': kill(
    { step: 1, reason: 'outcome' },
    move(0, 'r1', 1, 2, 300),
    move(1, 'r1', 1, 2, 300),
  ),
  'transfer-receipt-error-swallowed': kill(
    { step: 1, reason: 'outcome' },
    { kind: 'storeFail' },
    move(0, 'r1', 1, 2, 300),
  ),
};

await describeMutants('transfer', KILLS);
