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
  const drafts: {
    op: SerialOp;
    client: number;
    invokedAt: number;
    completedAt: number;
    serial: number;
  }[] = [];
  const lastOf = new Map<number, number>();

  ops.forEach((op, serial) => {
    const point = 10 * serial;
    if (op.harness) {
      drafts.push({
        op,
        client: HARNESS_CLIENT,
        invokedAt: point - random.int(4),
        completedAt: point + random.int(4),
        serial,
      });
      return;
    }
    const client = random.int(clients);
    const previous = lastOf.get(client);
    let invokedAt = Math.max(0, point - random.int(spread));
    if (previous !== undefined) {
      // The previous call ends somewhere after its own point; this one starts after that.
      const before = drafts[previous] as (typeof drafts)[number];
      const gap = point - 10 * before.serial;
      before.completedAt = 10 * before.serial + random.int(Math.ceil(gap / 2));
      invokedAt = before.completedAt + 1 + random.int(point - before.completedAt);
    }
    lastOf.set(client, drafts.length);
    drafts.push({ op, client, invokedAt, completedAt: point + random.int(spread), serial });
  });

  drafts.sort((a, b) => a.invokedAt - b.invokedAt || a.serial - b.serial);
  const idOfSerial: number[] = [];
  const history: HistoryEntry[] = drafts.map((d, id) => {
    idOfSerial[d.serial] = id;
    const base = { id, client: d.client, event: d.op.event, invokedAt: d.invokedAt };
    if (d.op.unknown) return base;
    return d.op.observed
      ? { ...base, completedAt: d.completedAt, observed: d.op.observed }
      : { ...base, completedAt: d.completedAt };
  });
  const witness = ops.flatMap((op, serial) => (op.applied ? [idOfSerial[serial] as number] : []));
  const initial = initialState(fixture);
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
