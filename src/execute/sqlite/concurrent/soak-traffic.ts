/**
 * What the clients of a soak run send, decided one operation at a time from a seeded stream and
 * from what the clients have learned so far. Pure (no I/O, no clock): the soak driver asks
 * `nextOperation` before each task and reports the reply with `learn`.
 *
 * Clients share what a fleet of app servers would share: for `set_interval`, the highest version
 * of each automation anyone has seen, and, per principal, the requests sent recently, so that a retry may come from
 * another client than the first attempt and race it, as a retry through a load balancer does.
 * Clients `c` speak as principal `c mod principals`. The driver, not this file, decides timing.
 */
import { type SeededRandom, seededRandom } from '../../../check/linearizability/seeded-random.ts';
import { clockStep } from '../../../generate/clock-step.ts';
import type { CallEvent, CallRequest, Delivery, Event } from '../../../model/events.ts';
import {
  type ArgumentField,
  type OperationSpec,
  type Row,
  targetRows,
} from '../../../model/operation.ts';
import type { Observed } from '../../../model/outcome.ts';
import type { Fixture } from '../../../model/world.ts';

const INTERVALS = [5, 30, 60, 1440];
const RECENT_MAX = 16;

/** Which kinds of world event a soak may issue. */
export interface SoakTrafficOptions {
  /** Moves, scope changes and receipt-store failures among the calls. Default true. */
  readonly worldEvents?: boolean;
  /**
   * The declared expiry's lifetime in ms (`expiryLifetime`), when the plugin declares one: clock
   * advances, sized as in generated runs (`clockStep`), join the world events.
   */
  readonly clockLifetime?: number;
}

/** The shared knowledge of all soak clients, and each client's random stream. */
export interface SoakTraffic {
  readonly fixture: Fixture;
  /** The operation the clients call. */
  readonly spec: OperationSpec;
  readonly worldEvents: boolean;
  /** See `SoakTrafficOptions.clockLifetime`; undefined: the clock never moves. */
  readonly clockLifetime: number | undefined;
  readonly streams: SeededRandom[];
  /** Highest version seen per automation id. */
  readonly versions: Map<number, number>;
  /** Recent requests per principal, newest last. */
  readonly recent: CallRequest[][];
  /** Lost-response requests per client, to retry later. */
  readonly pending: CallRequest[][];
  /** Scope last asked for per principal, and the store state last asked for. */
  readonly granted: boolean[];
  storeFailing: boolean;
  /** Where each automation was last sent, by id (its fixture workspace when it is home). */
  readonly placedIn: Map<number, string>;
  /** Everything ever disrupted: principals revoked, automations moved, the store failed. */
  readonly disrupted: Set<string>;
  readonly minted: number[];
  /** The fixture's target rows (automations, accounts, customers). */
  readonly rows: readonly Row[];
}

/** Traffic for `clients` clients of `fixture`, from `seed`. */
export function createSoakTraffic(
  fixture: Fixture,
  spec: OperationSpec,
  clients: number,
  seed: number,
  options: SoakTrafficOptions = {},
): SoakTraffic {
  const rows = targetRows(fixture, spec);
  return {
    fixture,
    spec,
    rows,
    worldEvents: options.worldEvents ?? true,
    clockLifetime: options.clockLifetime,
    streams: Array.from({ length: clients }, (_, c) => seededRandom((seed * 7919 + c) | 0)),
    versions: new Map(rows.map((a) => [a.id, Number(a.version ?? 1)])),
    recent: fixture.principals.map(() => []),
    pending: Array.from({ length: clients }, () => []),
    granted: fixture.principals.map((p) => p.scopes.includes(spec.scope)),
    storeFailing: false,
    placedIn: new Map(rows.map((a) => [a.id, String(a.workspace)])),
    disrupted: new Set(),
    minted: Array.from({ length: clients }, () => 0),
  };
}

/** The principal client `client` speaks as. */
export function principalOf(traffic: SoakTraffic, client: number): number {
  return client % traffic.fixture.principals.length;
}

/** The next operation of `client`. */
export function nextOperation(t: SoakTraffic, client: number): Event {
  const rnd = t.streams[client] as SeededRandom;
  const p = principalOf(t, client);
  const roll = rnd.next();
  if (t.worldEvents) {
    // Disruptions are short: whoever notices one soon undoes it, so most calls can succeed.
    const revert = rnd.chance(0.15) ? undoDisruption(t, rnd) : undefined;
    if (revert) return revert;
    if (roll < 0.06) return disrupt(t, rnd, p);
  }
  const recent = t.recent[p] as CallRequest[];
  const pending = t.pending[client] as CallRequest[];
  if (roll < 0.15 && pending.length > 0) {
    return call(
      p,
      pending.splice(rnd.int(pending.length), 1)[0] as CallRequest,
      'delivered',
      'retry',
    );
  }
  if (roll < 0.35 && recent.length > 0) return call(p, rnd.pick(recent), delivery(rnd), 'retry');
  const { spec } = t;
  const valueFields = spec.fields.filter(
    (f) => f.name !== spec.targetField && !spec.otherTargets?.includes(f.name),
  );
  const versioned = spec.name === 'set-interval';
  if (roll < 0.4 && recent.length > 0) {
    const r = rnd.pick(recent);
    const changed = versioned
      ? { ...r, intervalMinutes: r.intervalMinutes === 30 ? 60 : 30 }
      : changedValue(r, valueFields);
    return call(p, changed, delivery(rnd), 'reuse');
  }
  if (roll < 0.42) {
    const bad = versioned
      ? { requestId: '', automationId: 1, expectedVersion: 1, intervalMinutes: 30 }
      : { requestId: '', [spec.targetField]: 1, ...typicalValues(valueFields, () => 0) };
    return call(p, bad, 'delivered', 'invalid');
  }
  const home = t.fixture.principals[p]?.workspace;
  const own = t.rows.filter((a) => t.placedIn.get(a.id) === home);
  const id = (own.length > 0 && rnd.chance(0.85) ? rnd.pick(own) : rnd.pick(t.rows)).id;
  const seen = t.versions.get(id) ?? 1;
  const minted = (t.minted[client] ?? 0) + 1;
  t.minted[client] = minted;
  const requestId = `c${client}-${minted}`;
  const request: CallRequest = versioned
    ? {
        requestId,
        automationId: id,
        expectedVersion: rnd.chance(0.9) ? seen : Math.max(1, seen + (rnd.chance(0.5) ? 1 : -1)),
        intervalMinutes: rnd.pick(INTERVALS),
      }
    : {
        requestId,
        [spec.targetField]: id,
        ...otherTargetIds(spec, id, own.length > 1 ? own : t.rows, (n) => rnd.int(n)),
        ...typicalValues(valueFields, (n) => rnd.int(n)),
      };
  recent.push(request);
  if (recent.length > RECENT_MAX) recent.shift();
  return call(p, request, delivery(rnd), 'new');
}

/** Updates the shared knowledge with what `client` observed for `event` (the real outcome). */
export function learn(t: SoakTraffic, client: number, event: Event, observed?: Observed): void {
  if (event.kind !== 'call' || !observed) return;
  if (event.delivery === 'lostResponse') {
    (t.pending[client] as CallRequest[]).push(event.request);
    return;
  }
  const id = event.request.automationId as number;
  if (observed.kind === 'ok') {
    const r = observed.result;
    if (typeof r.version !== 'number' || typeof r.id !== 'number') return;
    if (r.version > (t.versions.get(r.id) ?? 0)) t.versions.set(r.id, r.version);
  } else if (observed.kind === 'refused' && observed.reason === 'conflict') {
    // A reload, approximated: versions only grow, so the one we used was behind.
    if (t.versions.get(id) === event.request.expectedVersion)
      t.versions.set(id, (event.request.expectedVersion as number) + 1);
  }
}

/**
 * Events that leave the world callable again, for the drain phase: every scope ever revoked
 * given back, every automation ever moved sent home, the store working if it ever failed.
 * Unconditional, because racing toggles may have landed in any order; nothing when nothing was
 * disrupted, so that a soak without world events keeps its independent parts apart.
 */
export function settleWorld(t: SoakTraffic): Event[] {
  const events: Event[] = [];
  t.fixture.principals.forEach((_, client) => {
    if (t.disrupted.has(`scope ${client}`)) events.push({ kind: 'restore', client });
  });
  for (const a of t.rows)
    if (t.disrupted.has(`row ${a.id}`))
      events.push({ kind: 'move', resourceId: a.id, workspace: String(a.workspace) });
  if (t.disrupted.has('store')) events.push({ kind: 'storeRestore' });
  t.granted.fill(true);
  t.storeFailing = false;
  for (const a of t.rows) t.placedIn.set(a.id, String(a.workspace));
  return events;
}

function disrupt(t: SoakTraffic, rnd: SeededRandom, p: number): Event {
  // Only under a declared expiry is a draw spent on time, so other plugins' traffic is unchanged.
  if (t.clockLifetime !== undefined && rnd.chance(0.3))
    return { kind: 'clockAdvance', ms: clockStep(t.clockLifetime, rnd.chance(0.5)) };
  const roll = rnd.next();
  if (roll < 0.45) {
    const { id } = rnd.pick(t.rows);
    const away = t.fixture.workspaces.filter((w) => w !== t.placedIn.get(id));
    const workspace = away.length > 0 ? rnd.pick(away) : rnd.pick(t.fixture.workspaces);
    t.placedIn.set(id, workspace);
    t.disrupted.add(`row ${id}`);
    return { kind: 'move', resourceId: id, workspace };
  }
  if (roll < 0.9) {
    t.granted[p] = false;
    t.disrupted.add(`scope ${p}`);
    return { kind: 'revoke', client: p };
  }
  t.storeFailing = true;
  t.disrupted.add('store');
  return { kind: 'storeFail' };
}

function undoDisruption(t: SoakTraffic, rnd: SeededRandom): Event | undefined {
  const undo: Event[] = [];
  t.granted.forEach((g, client) => {
    if (!g) undo.push({ kind: 'restore', client });
  });
  if (t.storeFailing) undo.push({ kind: 'storeRestore' });
  for (const a of t.rows)
    if (t.placedIn.get(a.id) !== a.workspace)
      undo.push({ kind: 'move', resourceId: a.id, workspace: String(a.workspace) });
  if (undo.length === 0) return undefined;
  const event = rnd.pick(undo);
  if (event.kind === 'restore') t.granted[event.client] = true;
  if (event.kind === 'storeRestore') t.storeFailing = false;
  if (event.kind === 'move') t.placedIn.set(event.resourceId, event.workspace);
  return event;
}

function delivery(rnd: SeededRandom): Delivery {
  const roll = rnd.next();
  return roll < 0.06 ? 'lostResponse' : roll < 0.08 ? 'lostRequest' : 'delivered';
}

function call(
  client: number,
  request: CallRequest,
  d: Delivery,
  intent: CallEvent['intent'],
): CallEvent {
  return { kind: 'call', client, request, delivery: d, intent };
}

/** A valid value for each field, the `pick`-th of its typical values (its bounds by default). */
/** For an operation that writes several rows: other rows than `first` for its other targets. */
function otherTargetIds(
  spec: OperationSpec,
  first: number,
  rows: readonly Row[],
  pick: (n: number) => number,
): Record<string, number> {
  const ids: Record<string, number> = {};
  const named = [first];
  for (const name of spec.otherTargets ?? []) {
    const free = rows.filter((r) => !named.includes(r.id));
    const id = free.length > 0 ? (free[pick(free.length)] as Row).id : first;
    ids[name] = id;
    named.push(id);
  }
  return ids;
}

function typicalValues(
  fields: readonly ArgumentField[],
  pick: (n: number) => number,
): Record<string, number | string> {
  return Object.fromEntries(
    fields.map((f) => {
      const values = typicalOf(f);
      return [f.name, values[pick(values.length) % values.length] as number | string];
    }),
  );
}

/** `request` with its first value field set to another of its typical values (a key reuse). */
function changedValue(request: CallRequest, fields: readonly ArgumentField[]): CallRequest {
  const field = fields[0];
  if (!field) return request;
  const other = typicalOf(field).find((v) => v !== request[field.name]);
  return other === undefined ? request : { ...request, [field.name]: other };
}

function typicalOf(f: ArgumentField): readonly (number | string | boolean)[] {
  if (f.typical && f.typical.length > 0) return f.typical;
  if (f.rule.kind === 'integer') return [f.rule.min, f.rule.max];
  if (f.rule.kind === 'custom') return f.rule.valid;
  return [1];
}
