/**
 * What each generated client knows, as a real client would: the request ids it has used, the
 * requests still waiting for an answer (lost request or response), and, for a versioned
 * operation (`versioning.ts`), the last version it saw of each target row. Retries and new
 * intents are drawn from this, not at random.
 */
import type { CallEvent, CallRequest } from '../model/events.ts';
import { type OperationSpec, targetRows } from '../model/operation.ts';
import type { Observed } from '../model/outcome.ts';
import type { ModelState } from '../model/state.ts';
import { isRequestId } from '../model/validate.ts';
import type { Fixture } from '../model/world.ts';
import type { ClassName } from './field-classes.ts';
import { type IdChoice, shapedId } from './request-ids.ts';
import { versionField, versionOf } from './versioning.ts';

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
  /** Last version seen per target row id; empty for an operation without versions. */
  readonly lastSeen: Map<number, number>;
}

/** Fresh knowledge for every principal of `fixture`: all versions as the fixture has them. */
export function initialKnowledge(fixture: Fixture, spec: OperationSpec): ClientKnowledge[] {
  const rows = versionField(spec) ? targetRows(fixture, spec) : [];
  const versions = rows.map((a): [number, number] => [a.id, versionOf(a)]);
  return fixture.principals.map(() => ({
    minted: 0,
    ids: new Set(),
    sent: [],
    pending: [],
    lastSeen: new Map(versions),
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
  const spec = after.operation;
  if (!versionField(spec)) return;
  // An ok's result names the row the request targets: a replay only answers an equal payload.
  const id = request[spec.targetField] as number;
  if (observed.kind === 'ok') {
    k.lastSeen.set(id, Math.max(k.lastSeen.get(id) ?? 1, versionOf(observed.result)));
  } else if (observed.kind === 'refused' && observed.reason === 'conflict') {
    // Reload before a new intent, as the contract tells clients to.
    const row = after.rows.get(id);
    if (row) k.lastSeen.set(id, versionOf(row));
  }
}

/**
 * A request id client `k` (and `also`, when two clients send it at once) never used, of the
 * chosen shape if it can be made outside the `excluded` classes, else `r<n>`. Recorded as used.
 */
export function freshId(
  k: ClientKnowledge,
  choice: IdChoice,
  excluded: ReadonlySet<ClassName>,
  also?: ClientKnowledge,
): string {
  const n = k.minted++;
  let id = shapedId(choice, n, sentIds(k), k.ids, excluded) ?? `r${n}`;
  while (k.ids.has(id) || also?.ids.has(id) === true) id = `r${k.minted++}`;
  k.ids.add(id);
  also?.ids.add(id);
  return id;
}

/** Where every client's minting stood, to take back the ids a discarded attempt minted. */
export type KnowledgeMark = readonly (readonly [minted: number, ids: number])[];

/** The mark of `clients` now. */
export function markKnowledge(clients: readonly ClientKnowledge[]): KnowledgeMark {
  return clients.map((k) => [k.minted, k.ids.size] as const);
}

/**
 * Takes back every id minted since `mark` (requests made but never sent): the ids, kept in the
 * order minted, are cut back to their count then.
 */
export function rollBackKnowledge(clients: readonly ClientKnowledge[], mark: KnowledgeMark): void {
  for (const [i, k] of clients.entries()) {
    const [minted, size] = mark[i] ?? [k.minted, k.ids.size];
    k.minted = minted;
    if (k.ids.size > size) for (const id of [...k.ids].slice(size)) k.ids.delete(id);
  }
}
