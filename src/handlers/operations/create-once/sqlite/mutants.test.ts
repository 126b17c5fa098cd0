import type { Event } from '../../../../model/events.ts';
import { call, type Divergence } from '../../testing/model-agreement.ts';
import { describeMutants, type Kill } from '../../testing/mutant-suite.ts';

const invoice = (client: number, requestId: string, customerId: number, amount: number) =>
  call(client, requestId, { customerId, amount });

const kill = (at: Pick<Divergence, 'step' | 'reason'>, ...events: Event[]): Kill => ({
  events,
  at,
});

/** Per sequential mutant: the shortest history that shows its bug, and where it shows. */
const KILLS: Record<string, Kill> = {
  'create-once-receipt-after-insert': kill(
    { step: 1, reason: 'snapshot' },
    invoice(0, 'r1', 1, 500),
    invoice(0, 'r1', 1, 500),
  ),
  'create-once-key-without-user': kill(
    { step: 1, reason: 'outcome' },
    invoice(0, 'r1', 1, 500),
    invoice(1, 'r1', 1, 500),
  ),
  'create-once-key-without-workspace': kill(
    { step: 1, reason: 'outcome' },
    invoice(0, 'r1', 1, 500),
    invoice(2, 'r1', 20, 500),
  ),
  'create-once-receipt-after-commit': kill(
    { step: 1, reason: 'snapshot' },
    { kind: 'storeFail' },
    invoice(0, 'r1', 1, 500),
  ),
  'create-once-receipt-error-swallowed': kill(
    { step: 1, reason: 'outcome' },
    { kind: 'storeFail' },
    invoice(0, 'r1', 1, 500),
  ),
  'create-once-access-after-receipt': kill(
    { step: 2, reason: 'outcome' },
    invoice(0, 'r1', 1, 500),
    { kind: 'move', resourceId: 1, workspace: 'team-b' },
    invoice(0, 'r1', 1, 500),
  ),
  'create-once-replay-not-flagged': kill(
    { step: 1, reason: 'outcome' },
    invoice(0, 'r1', 1, 500),
    invoice(0, 'r1', 1, 500),
  ),
  'create-once-replay-latest-invoice': kill(
    { step: 2, reason: 'outcome' },
    invoice(0, 'r1', 1, 500),
    invoice(0, 'r2', 1, 700),
    invoice(0, 'r1', 1, 500),
  ),
  'create-once-fingerprint-without-amount': kill(
    { step: 1, reason: 'outcome' },
    invoice(0, 'r1', 1, 500),
    invoice(0, 'r1', 1, 700),
  ),
  'create-once-dedupe-by-content': kill(
    { step: 1, reason: 'outcome' },
    invoice(0, 'r1', 1, 500),
    invoice(0, 'r2', 1, 500),
  ),
};

await describeMutants('create-once', KILLS);
