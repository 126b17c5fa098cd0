/**
 * The first half of the synthetic history generator: a serial script, produced by stepping the
 * model over realistic traffic. Clients mostly read the current version and write with a key
 * from a small pool; they also retry, reuse keys, send invalid arguments and lose requests;
 * the harness now and then revokes and restores a scope, fails and restores the store, moves an
 * automation away and back, or deletes and re-creates it. Some calls lose their reply (they took
 * effect) or crash (they did not): the checker will see neither completion nor outcome for them.
 */
import type { CallEvent, CallRequest, Event, WorldEvent } from '../../model/events.ts';
import { setInterval } from '../../model/operations/set-interval.ts';
import type { Observed } from '../../model/outcome.ts';
import { initialState, type ModelState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { DEFAULT_FIXTURE, type SetIntervalFixture } from '../../model/world.ts';
import type { SeededRandom } from './seeded-random.ts';

/** How the traffic looks; every field has a default. */
export interface SyntheticTraffic {
  /** Where the run starts. Default `DEFAULT_FIXTURE`. */
  readonly fixture?: SetIntervalFixture;
  /** Distinct request ids each principal draws new intents from. Default 256. */
  readonly requestIdPool?: number;
  /** Pairs of world events (revoke+restore, storeFail+storeRestore, move+move back, delete+recreate). Default 2. */
  readonly worldEventPairs?: number;
  /** Share of delivered calls whose reply is lost or whose server crashes. Default 0.01. */
  readonly unknownRate?: number;
}

/** One operation of the script, in serial order. */
export interface SerialOp {
  readonly event: Event;
  /** What the model said; undefined for world events and for unknown calls. */
  readonly observed?: Observed;
  /** Issued by the harness rather than a client. */
  readonly harness: boolean;
  /** Completion and outcome unknown to the checker. */
  readonly unknown: boolean;
  /** Whether the op took effect; false only for crashes, which the witness order leaves out. */
  readonly applied: boolean;
}

/** `length` serial operations from the fixture's initial state. */
export function serialScript(
  random: SeededRandom,
  length: number,
  traffic: SyntheticTraffic = {},
): SerialOp[] {
  const fixture = traffic.fixture ?? DEFAULT_FIXTURE;
  const pool = traffic.requestIdPool ?? 256;
  const unknownRate = traffic.unknownRate ?? 0.01;
  const world = worldSchedule(random, length, fixture, traffic.worldEventPairs ?? 2);
  const recent: CallRequest[][] = fixture.principals.map(() => []);
  let state: ModelState = initialState(fixture, setInterval);
  const ops: SerialOp[] = [];
  for (let i = 0; i < length; i++) {
    const worldEvent = world.get(i);
    if (worldEvent) {
      state = step(state, worldEvent).state;
      ops.push({ event: worldEvent, harness: true, unknown: false, applied: true });
      continue;
    }
    const client = random.int(fixture.principals.length);
    const mine = recent[client] as CallRequest[];
    const request = nextRequest(random, state, fixture, client, pool, mine);
    const lost = random.chance(0.02);
    const event: CallEvent = {
      kind: 'call',
      client,
      request,
      delivery: lost ? 'lostRequest' : 'delivered',
    };
    const unknown = !lost && random.chance(unknownRate);
    const crashed = unknown && random.chance(0.5);
    if (crashed) {
      ops.push({ event, harness: false, unknown, applied: false });
      continue;
    }
    const t = step(state, event);
    state = t.state;
    mine.push(request);
    if (mine.length > 16) mine.shift();
    ops.push(
      unknown
        ? { event, harness: false, unknown, applied: true }
        : { event, observed: t.outcome, harness: false, unknown, applied: true },
    );
  }
  return ops;
}

function nextRequest(
  random: SeededRandom,
  state: ModelState,
  fixture: SetIntervalFixture,
  client: number,
  pool: number,
  mine: readonly CallRequest[],
): CallRequest {
  const roll = random.next();
  const earlier = mine.length > 0 ? random.pick(mine) : undefined;
  if (earlier && roll < 0.25) return earlier;
  if (earlier && roll < 0.3) return { ...earlier, intervalMinutes: 5 + random.int(1436) };
  if (roll < 0.33) return invalidRequest(random);
  const own = fixture.automations.filter(
    (a) => a.workspace === fixture.principals[client]?.workspace,
  );
  const targets = own.length > 0 && random.chance(0.9) ? own : fixture.automations;
  const automationId = random.chance(0.02) ? 99 : random.pick(targets).id;
  const current = (state.rows.get(automationId)?.version as number | undefined) ?? 1;
  const expectedVersion = random.chance(0.8) ? current : Math.max(1, current - 1 - random.int(2));
  return {
    requestId: `r${random.int(pool)}`,
    automationId,
    expectedVersion,
    intervalMinutes: 5 + random.int(1436),
  };
}

function invalidRequest(random: SeededRandom): CallRequest {
  const base = { requestId: 'bad-args', automationId: 1, expectedVersion: 1, intervalMinutes: 30 };
  switch (random.int(3)) {
    case 0:
      return { ...base, requestId: '' };
    case 1:
      return { ...base, automationId: 0 };
    default:
      return { ...base, intervalMinutes: 4 };
  }
}

/** Positions of the harness's world events, each pair opened and later closed. */
function worldSchedule(
  random: SeededRandom,
  length: number,
  fixture: SetIntervalFixture,
  pairs: number,
): Map<number, WorldEvent> {
  const at = new Map<number, WorldEvent>();
  const place = (from: number, event: WorldEvent): number => {
    let i = Math.min(from, length - 1);
    while (i < length && at.has(i)) i++;
    if (i < length) at.set(i, event);
    return i;
  };
  for (let k = 0; k < pairs && length > 1; k++) {
    const start = random.int(length);
    const end = start + 1 + random.int(Math.max(1, Math.floor(length / 20)));
    const row = random.pick(fixture.automations);
    const elsewhere = fixture.workspaces.find((w) => w !== row.workspace) ?? row.workspace;
    const client = random.int(fixture.principals.length);
    const kinds: [WorldEvent, WorldEvent][] = [
      [
        { kind: 'revoke', client },
        { kind: 'restore', client },
      ],
      [{ kind: 'storeFail' }, { kind: 'storeRestore' }],
      [
        { kind: 'move', resourceId: row.id, workspace: elsewhere },
        { kind: 'move', resourceId: row.id, workspace: row.workspace },
      ],
      [
        { kind: 'delete', resourceId: row.id },
        { kind: 'recreate', resourceId: row.id, workspace: row.workspace },
      ],
    ];
    const [open, close] = kinds[k % kinds.length] as [WorldEvent, WorldEvent];
    const opened = place(start, open);
    place(Math.max(end, opened + 1), close);
  }
  return at;
}
