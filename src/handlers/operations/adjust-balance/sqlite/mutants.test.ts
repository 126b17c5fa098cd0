import type { Event } from '../../../../model/events.ts';
import { call, type Divergence } from '../../testing/model-agreement.ts';
import { describeMutants, type Kill } from '../../testing/mutant-suite.ts';

const adjust = (client: number, requestId: string, accountId: number, delta: number) =>
  call(client, requestId, { accountId, delta });

const kill = (at: Pick<Divergence, 'step' | 'reason'>, ...events: Event[]): Kill => ({
  events,
  at,
});

/** Per sequential mutant: the shortest history that shows its bug, and where it shows. */
const KILLS: Record<string, Kill> = {
  'adjust-balance-effect-before-receipt': kill(
    { step: 1, reason: 'snapshot' },
    adjust(0, 'r1', 1, 250),
    adjust(0, 'r1', 1, 250),
  ),
  'adjust-balance-precondition-before-receipt': kill(
    { step: 1, reason: 'outcome' },
    adjust(0, 'r1', 1, -700),
    adjust(0, 'r1', 1, -700),
  ),
  'adjust-balance-replay-from-current-balance': kill(
    { step: 2, reason: 'outcome' },
    adjust(0, 'r1', 1, 250),
    adjust(0, 'r2', 1, 100),
    adjust(0, 'r1', 1, 250),
  ),
  'adjust-balance-fingerprint-without-sign': kill(
    { step: 1, reason: 'outcome' },
    adjust(0, 'r1', 1, 100),
    adjust(0, 'r1', 1, -100),
  ),
  'adjust-balance-fingerprint-without-account': kill(
    { step: 1, reason: 'outcome' },
    adjust(0, 'r1', 1, 100),
    adjust(0, 'r1', 2, 100),
  ),
  'adjust-balance-receipt-after-commit': kill(
    { step: 1, reason: 'snapshot' },
    { kind: 'storeFail' },
    adjust(0, 'r1', 1, 100),
  ),
  'adjust-balance-receipt-error-swallowed': kill(
    { step: 1, reason: 'outcome' },
    { kind: 'storeFail' },
    adjust(0, 'r1', 1, 100),
  ),
  'adjust-balance-access-after-receipt': kill(
    { step: 2, reason: 'outcome' },
    adjust(0, 'r1', 1, 100),
    { kind: 'delete', resourceId: 1 },
    adjust(0, 'r1', 1, 100),
  ),
  'adjust-balance-key-without-user': kill(
    { step: 1, reason: 'outcome' },
    adjust(0, 'r1', 1, 100),
    adjust(1, 'r1', 1, 100),
  ),
};

await describeMutants('adjust-balance', KILLS);
