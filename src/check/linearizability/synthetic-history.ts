/**
 * A pure, seeded generator of realistic concurrent histories with a known answer, for testing
 * and measuring the checker.
 *
 * It steps the model serially (`serialScript`), gives operation i the linearisation point
 * `10 * i`, deals the calls out to clients at random, and draws each call's interval around its
 * point so that it starts after the same client's previous call ended. Every interval contains
 * its point and the serial order respects real time, so the history is linearizable; the witness
 * is returned. `corrupt` then breaks exactly one outcome so that no order can explain it.
 */
import type { History, HistoryEntry } from '../../model/history.ts';
import { setInterval } from '../../model/operations/set-interval.ts';
import type { Observed } from '../../model/outcome.ts';
import { initialState, type ModelState } from '../../model/state.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { seededRandom } from './seeded-random.ts';
import { type SerialOp, type SyntheticTraffic, serialScript } from './synthetic-serial.ts';

/** What to generate; everything but `seed` and `entries` has a default. */
export interface SyntheticOptions extends SyntheticTraffic {
  readonly seed: number;
  /** History length, world events included. */
  readonly entries: number;
  /** Concurrent clients (connections). Default 8. */
  readonly clients?: number;
  /** Break one outcome so the history cannot be linearised. Default false. */
  readonly corrupt?: boolean;
}

/** A generated history with what is known about it. */
export interface SyntheticHistory {
  readonly initial: ModelState;
  /** Sorted by invocation time; ids are indices. */
  readonly history: History;
  /** A linearisation: ids of the ops that took effect, in serial order (before any corruption). */
  readonly witness: readonly number[];
  /** The entry `corrupt` broke (appended when no call had an outcome to break). */
  readonly corruptedId?: number;
}

/** The client number the harness's world events carry. */
export const HARNESS_CLIENT = -1;

/** Generates a history; the same options always give the same history. */
export function syntheticHistory(options: SyntheticOptions): SyntheticHistory {
  const random = seededRandom(options.seed);
  const clients = options.clients ?? 8;
  const fixture = options.fixture ?? DEFAULT_FIXTURE;
  const ops = serialScript(random, options.entries, options);
  const spread = 10 * clients;
  // Per serial position, in typed arrays: a million-entry history makes no draft objects.
  const n = ops.length;
  const clientOf = new Int32Array(n);
  const invoked = new Float64Array(n);
  const completed = new Float64Array(n);
  const lastOf = new Int32Array(clients).fill(-1);

  for (let serial = 0; serial < n; serial++) {
    const op = ops[serial] as SerialOp;
    const point = 10 * serial;
    if (op.harness) {
      clientOf[serial] = HARNESS_CLIENT;
      invoked[serial] = point - random.int(4);
      completed[serial] = point + random.int(4);
      continue;
    }
    const client = random.int(clients);
    const previous = lastOf[client] as number;
    let invokedAt = Math.max(0, point - random.int(spread));
    if (previous >= 0) {
      // The previous call ends somewhere after its own point; this one starts after that.
      const gap = point - 10 * previous;
      const end = 10 * previous + random.int(Math.ceil(gap / 2));
      completed[previous] = end;
      invokedAt = end + 1 + random.int(point - end);
    }
    lastOf[client] = serial;
    clientOf[serial] = client;
    invoked[serial] = invokedAt;
    completed[serial] = point + random.int(spread);
  }

  const bySerial = Array.from({ length: n }, (_, serial) => serial);
  bySerial.sort((a, b) => (invoked[a] as number) - (invoked[b] as number) || a - b);
  const idOfSerial = new Int32Array(n);
  const history: HistoryEntry[] = new Array(n);
  for (let id = 0; id < n; id++) {
    const serial = bySerial[id] as number;
    idOfSerial[serial] = id;
    const op = ops[serial] as SerialOp;
    const client = clientOf[serial] as number;
    const invokedAt = invoked[serial] as number;
    const event = op.event;
    // Keys in one order (id, client, event, invokedAt, completedAt, observed), as ever.
    history[id] = op.unknown
      ? { id, client, event, invokedAt }
      : op.observed
        ? {
            id,
            client,
            event,
            invokedAt,
            completedAt: completed[serial] as number,
            observed: op.observed,
          }
        : { id, client, event, invokedAt, completedAt: completed[serial] as number };
  }
  const witness: number[] = [];
  ops.forEach((op, serial) => {
    if (op.applied) witness.push(idOfSerial[serial] as number);
  });
  const initial = initialState(fixture, setInterval);
  if (!options.corrupt) return { initial, history, witness };

  const reachable = Math.max(1, ...fixture.automations.map((a) => a.version)) + history.length;
  const corruptedId = corruptOne(history, random.int(history.length), reachable + 1);
  return { initial, history, witness, corruptedId };
}

/**
 * Breaks the first observed call at or after `from` (wrapping round): an `ok` gets a version no
 * order can reach (each fresh write adds one, so versions stay below the fixture's highest plus
 * the number of entries); any other outcome becomes `unexpected`, which the model never gives.
 * A history without observed calls gets one more entry, an `unexpected` call at the end.
 */
function corruptOne(history: HistoryEntry[], from: number, impossibleVersion: number): number {
  for (let k = 0; k < history.length; k++) {
    const i = (from + k) % history.length;
    const entry = history[i] as HistoryEntry;
    const seen = entry.observed;
    if (seen === undefined) continue;
    history[i] = { ...entry, observed: broken(seen, impossibleVersion) };
    return entry.id;
  }
  const last = history.reduce((t, e) => Math.max(t, e.completedAt ?? e.invokedAt), 0);
  const request = {
    requestId: 'corrupt',
    automationId: 1,
    expectedVersion: 1,
    intervalMinutes: 30,
  };
  const id = history.length;
  history.push({
    id,
    client: 0,
    event: { kind: 'call', client: 0, request, delivery: 'delivered' },
    invokedAt: last + 10,
    completedAt: last + 11,
    observed: broken({ kind: 'notSent' }, impossibleVersion),
  });
  return id;
}

function broken(seen: Observed, impossibleVersion: number): Observed {
  return seen.kind === 'ok'
    ? { ...seen, result: { ...seen.result, version: impossibleVersion } }
    : { kind: 'unexpected', message: 'corrupted by syntheticHistory' };
}
