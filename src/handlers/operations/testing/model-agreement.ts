/**
 * Test-only: drives a plugin and the pure model through the same events, on a fresh in-memory
 * database, and reports the first place they disagree: a call's outcome, or the snapshot after
 * any step. Stands in for the harness's sequential mode while that is being made generic; it
 * compares exactly (invoice ids included), which the reference meets because SQLite's rowid
 * rule is the model's `max + 1`.
 */
import Database from 'better-sqlite3';
import type { CallEvent, CallRequest, Event } from '../../../model/events.ts';
import { operationNamed } from '../../../model/operations/index.ts';
import { type Observed, sameOutcome } from '../../../model/outcome.ts';
import { initialState, type ModelState, toSnapshot } from '../../../model/state.ts';
import { step } from '../../../model/step.ts';
import type { Connection, HandlerPlugin } from '../../plugin.ts';

/** Where a plugin first left the model: the step (0-based), and what each side had. */
export type Divergence =
  | {
      readonly step: number;
      readonly reason: 'outcome';
      readonly expected: Observed;
      readonly actual: Observed;
    }
  | {
      readonly step: number;
      readonly reason: 'snapshot';
      readonly expected: string;
      readonly actual: string;
    };

/** A delivered call by `client` with request id `requestId` and the operation's arguments. */
export function call(
  client: number,
  requestId: unknown,
  args: Readonly<Record<string, unknown>>,
): CallEvent {
  return { kind: 'call', client, request: { requestId, ...args }, delivery: 'delivered' };
}

/** The first divergence of `plugin` from the model of its operation over `events`, if any. */
export function firstDivergence(
  plugin: HandlerPlugin,
  operation: string,
  events: readonly Event[],
): Divergence | undefined {
  const db = new Database(':memory:');
  try {
    const spec = operationNamed(operation);
    let state: ModelState = initialState({ ...spec.fixture, operation }, spec);
    plugin.setup(db, spec.fixture);
    for (const [i, event] of events.entries()) {
      const t = step(state, event);
      state = t.state;
      const actual = applyToHandler(plugin, db, state, event);
      if (t.outcome && actual && !sameOutcome(t.outcome, actual))
        return { step: i, reason: 'outcome', expected: t.outcome, actual };
      const expected = canonicalJson(toSnapshot(state));
      const seen = canonicalJson(plugin.snapshot(db));
      if (expected !== seen) return { step: i, reason: 'snapshot', expected, actual: seen };
    }
    return undefined;
  } finally {
    db.close();
  }
}

/** Runs one event against the handler; a call's observed outcome, else undefined. */
function applyToHandler(
  plugin: HandlerPlugin,
  db: Connection,
  after: ModelState,
  event: Event,
): Observed | undefined {
  switch (event.kind) {
    case 'call':
      if (event.delivery === 'lostRequest') return { kind: 'notSent' };
      // Scope changes are the harness's: the principal comes from the model's state.
      return observe(plugin, db, after.principals[event.client], event.request);
    case 'move':
      plugin.move(db, event.resourceId, event.workspace);
      return undefined;
    case 'delete':
      plugin.delete(db, event.resourceId);
      return undefined;
    case 'recreate':
      plugin.recreate?.(db, after.operation.recreated(event.resourceId, event.workspace));
      return undefined;
    case 'storeFail':
      plugin.failReceipts(db);
      return undefined;
    case 'storeRestore':
      plugin.restoreReceipts(db);
      return undefined;
    case 'revoke':
    case 'restore':
      return undefined;
  }
}

function observe(
  plugin: HandlerPlugin,
  db: Connection,
  principal: Parameters<HandlerPlugin['call']>[1] | undefined,
  request: CallRequest,
): Observed {
  if (!principal) throw new RangeError('no principal for the call');
  try {
    const answer = plugin.call(db, principal, request);
    if (answer instanceof Promise) throw new TypeError('these handlers are synchronous');
    return answer;
  } catch (thrown) {
    return { kind: 'unexpected', message: String(thrown) };
  }
}

/** JSON with object keys sorted at every depth, so key order never counts. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
