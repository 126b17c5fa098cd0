/**
 * What each generated client knows, as a real client would: the request ids it has used, the
 * requests still waiting for an answer (lost request or response), and the last version it saw
 * of each automation. Retries and new intents are drawn from this, not at random.
 */
import type { CallEvent, CallRequest } from '../model/events.ts';
import type { Observed } from '../model/outcome.ts';
import type { ModelState } from '../model/state.ts';
import { isRequestId } from '../model/validate.ts';
import type { Fixture } from '../model/world.ts';

/** One client's memory. Mutable: it lives only while a plan is resolved. */
export interface ClientKnowledge {
  /**
   * Number of request ids minted so far; the next is made from it (`r<n>`, or another shape, see
   * `request-ids.ts`). Clients share the text pool on purpose.
   */
  minted: number;
  /** Every request id minted, sent or not, so that a new one is fresh as a string. */
  readonly ids: Set<string>;
  /** Every well-formed request sent, oldest first. */
  readonly sent: CallRequest[];
  /** Requests whose answer never arrived. */
  pending: CallRequest[];
  /** Last version seen per automation id. */
  readonly lastSeen: Map<number, number>;
}

/** Fresh knowledge for every principal of `fixture`: all versions as the fixture has them. */
export function initialKnowledge(fixture: Fixture): ClientKnowledge[] {
  return fixture.principals.map(() => ({
    minted: 0,
    ids: new Set(),
    sent: [],
    pending: [],
    lastSeen: new Map(fixture.automations.map((a) => [a.id, a.version])),
  }));
}

/** The well-formed request ids the client sent, oldest first. */
export function sentIds(k: ClientKnowledge): string[] {
  return k.sent.map((r) => r.requestId).filter(isRequestId);
}

/** Updates a client's memory after the model answered `event` with `observed`, in state `after`. */
export function learn(
  k: ClientKnowledge,
  event: CallEvent,
  observed: Observed | undefined,
  after: ModelState,
): void {
  const request = event.request;
  if (event.intent !== 'invalid' && !k.sent.includes(request)) k.sent.push(request);
  if (event.delivery !== 'delivered' || !observed) {
    if (!k.pending.includes(request)) k.pending.push(request);
    return;
  }
  k.pending = k.pending.filter((r) => r !== request);
  if (observed.kind === 'ok') {
    const { id, version } = observed.result;
    k.lastSeen.set(id, Math.max(k.lastSeen.get(id) ?? 1, version));
  } else if (observed.kind === 'refused' && observed.reason === 'conflict') {
    // Reload before a new intent, as the contract tells clients to.
    const id = request.automationId as number;
    const row = after.rows.get(id);
    if (row) k.lastSeen.set(id, row.version);
  }
}
