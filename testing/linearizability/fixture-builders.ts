/**
 * Small constructors for hand-written histories over `DEFAULT_FIXTURE`, so a fixture reads like
 * a timeline: who called what, when, and what they saw. Principals: 0 is alice in team-a, 1 is
 * bob in team-a, 2 is alice in team-b; automations 1 and 2 live in team-a, 20 in team-b.
 */
import type { CallRequest, Delivery, WorldEvent } from '../../src/model/events.ts';
import type { HistoryEntry } from '../../src/model/history.ts';
import { type Observed, outcome } from '../../src/model/outcome.ts';
import { STORE_FAILURE_MESSAGE } from '../../src/model/step.ts';

/** `[invokedAt, completedAt]`; a missing completion means it never came back. */
export type Interval = readonly [number, number?];

/** A request to `set_interval` on automation `automationId`. */
export function request(
  requestId: string,
  automationId: number,
  expectedVersion: number,
  intervalMinutes: number,
): CallRequest {
  return { requestId, automationId, expectedVersion, intervalMinutes };
}

/** A call by principal `principal` (also used as the entry's client), seen to end in `observed`. */
export function call(
  id: number,
  principal: number,
  [invokedAt, completedAt]: Interval,
  req: CallRequest,
  observed?: Observed,
  delivery: Delivery = 'delivered',
): HistoryEntry {
  const event = { kind: 'call' as const, client: principal, request: req, delivery };
  const base = { id, client: principal, event, invokedAt };
  const done = completedAt === undefined ? base : { ...base, completedAt };
  return observed === undefined ? done : { ...done, observed };
}

/** A world event issued by the harness (client -1). */
export function world(
  id: number,
  [invokedAt, completedAt]: Interval,
  event: WorldEvent,
): HistoryEntry {
  const base = { id, client: -1, event, invokedAt };
  return completedAt === undefined ? base : { ...base, completedAt };
}

/** A fresh success on automation `id` that left it at `interval`, version `version`. */
export const fresh = (id: number, interval: number, version: number): Observed =>
  outcome.fresh({ id, intervalMinutes: interval, version });

/** A replay of the success above. */
export const replayed = (id: number, interval: number, version: number): Observed =>
  outcome.replayed({ id, intervalMinutes: interval, version });

/** Other outcomes, by name. */
export const conflict: Observed = outcome.refused('conflict');
export const unavailable: Observed = outcome.refused('unavailable');
export const forbidden: Observed = outcome.refused('forbidden');
export const keyReuse: Observed = outcome.keyReuse();
export const storeError: Observed = outcome.error(STORE_FAILURE_MESSAGE);
export const notSent: Observed = { kind: 'notSent' };
