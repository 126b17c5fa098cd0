/**
 * Deterministic reproductions of the findings in docs/findings.md. Two calls started together on
 * one connection interleave at the libraries' `await`s exactly as two requests do in one Node
 * process, so an in-flight race needs no threads; a store failure can be injected between the
 * library's claim and its completion the same way. Each test pins the library's behaviour: it
 * fails if the behaviour changes, and then the finding must be revisited. The race once reported
 * as F1 is pinned too, now as the contract's allowed answer: the checker accepts it under the
 * plugin's declaration and rejects it without.
 */
import {
  IdempotencyConfig,
  IdempotencyItemAlreadyExistsError,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import {
  BasePersistenceLayer,
  type IdempotencyRecord,
} from '@aws-lambda-powertools/idempotency/persistence';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkInvariants } from '../../check/invariants/all-invariants.ts';
import { ROW_CHANGE_HAS_RECEIPT } from '../../check/invariants/row-change-has-receipt.ts';
import { checkHistory } from '../../check/linearizability/check-history.ts';
import type { CallEvent, SetIntervalRequest } from '../../model/events.ts';
import type { History } from '../../model/history.ts';
import { setInterval as setIntervalSpec } from '../../model/operations/set-interval.ts';
import { type Observed, outcome } from '../../model/outcome.ts';
import { initialState } from '../../model/state.ts';
import type { SetIntervalSnapshot } from '../../model/world.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import type { Connection, HandlerPlugin } from '../plugin.ts';
import { Refusal } from './business-write.ts';
import nodeIdempotency from './node-idempotency.ts';
import { NODE_IDEMPOTENCY_TABLE } from './node-idempotency-storage.ts';
import powertools, { CALL_BUDGET_MS } from './powertools.ts';
import { POWERTOOLS_TABLE } from './powertools-persistence.ts';

const alice = DEFAULT_FIXTURE.principals[0] as (typeof DEFAULT_FIXTURE.principals)[0];
const request = (
  requestId: string,
  automationId: number,
  intervalMinutes = 30,
): SetIntervalRequest => ({
  requestId,
  automationId,
  expectedVersion: 1,
  intervalMinutes,
});
const PLUGINS: [string, HandlerPlugin, string][] = [
  ['powertools', powertools, POWERTOOLS_TABLE],
  ['node-idempotency', nodeIdempotency, NODE_IDEMPOTENCY_TABLE],
];

function world(plugin: HandlerPlugin): Connection {
  const db = new Database(':memory:');
  plugin.setup(db, DEFAULT_FIXTURE);
  return db;
}

/** Yields to pending microtasks until the library has written its claim on `table`. */
async function untilClaimed(db: Connection, table: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if ((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n > 0) return;
    await Promise.resolve();
  }
  throw new Error('the library never claimed the key');
}

afterEach(() => {
  vi.useRealTimers();
});

describe.each(PLUGINS)('%s: in-flight duplicates (declared inFlightDuplicate)', (_n, plugin) => {
  it('answers an identical duplicate of a running call with refused(conflict)', async () => {
    const db = world(plugin);
    const r = request('r1', 1);
    const both = await Promise.all([plugin.call(db, alice, r), plugin.call(db, alice, r)]);
    expect(both).toEqual([
      outcome.fresh({ id: 1, intervalMinutes: 30, version: 2 }),
      outcome.refused('conflict'),
    ]);
  });
});

describe('powertools: a key reuse racing a call that is then refused (once F1)', () => {
  it('says keyReuse though no record survives for the key: allowed, as declared', async () => {
    const db = world(powertools);
    const calls = [request('r1', 999, 30), request('r1', 999, 60)];
    const both = await Promise.all(calls.map((r) => powertools.call(db, alice, r)));
    expect(both).toEqual([outcome.refused('unavailable'), outcome.keyReuse()]);
    expect(powertools.snapshot(db).receipts).toEqual([]);
    expect(db.prepare(`SELECT count(*) AS n FROM ${POWERTOOLS_TABLE}`).get()).toEqual({ n: 0 });
    // The two calls overlapped: the reuse met the refused call's claim. The contract allows
    // keyReuse there where claims are visible (the plugin's inFlightDuplicate), not without.
    const history: History = calls.map((r, id) => ({
      id,
      client: 0,
      event: { kind: 'call', client: 0, request: r, delivery: 'delivered' },
      invokedAt: id,
      completedAt: 2 + id,
      observed: both[id] as Observed,
    }));
    const declared = initialState(
      { ...DEFAULT_FIXTURE, policy: powertools.policy },
      setIntervalSpec,
    );
    expect(checkHistory(declared, history).verdict).toBe('ok');
    expect(checkHistory(initialState(DEFAULT_FIXTURE, setIntervalSpec), history)).toMatchObject({
      verdict: 'illegal',
      stuck: [1],
    });
  });

  it('comes from the library, not the adapter: a Map-backed layer answers the same', async () => {
    const records = new Map<string, IdempotencyRecord>();
    class MapLayer extends BasePersistenceLayer {
      protected async _getRecord(key: string) {
        return records.get(key) as IdempotencyRecord;
      }
      protected async _putRecord(record: IdempotencyRecord) {
        const old = records.get(record.idempotencyKey);
        if (old) throw new IdempotencyItemAlreadyExistsError('exists', old);
        records.set(record.idempotencyKey, record);
      }
      protected async _updateRecord(record: IdempotencyRecord) {
        records.set(record.idempotencyKey, record);
      }
      protected async _deleteRecord(record: IdempotencyRecord) {
        records.delete(record.idempotencyKey);
      }
    }
    const refuse = makeIdempotent(
      async (_event: { key: string; interval: number }): Promise<never> => {
        throw new Refusal('unavailable');
      },
      {
        persistenceStore: new MapLayer(),
        config: new IdempotencyConfig({
          eventKeyJmesPath: 'key',
          payloadValidationJmesPath: 'interval',
        }),
      },
    );
    const both = await Promise.allSettled([
      refuse({ key: 'k', interval: 30 }),
      refuse({ key: 'k', interval: 60 }),
    ]);
    expect(both.map((s) => (s.status === 'rejected' ? s.reason.constructor : s.status))).toEqual([
      Refusal,
      IdempotencyValidationError,
    ]);
    expect(records.size).toBe(0);
  });
});

describe('node-idempotency: a key reuse racing a running call', () => {
  it('gets refused(conflict): "in progress" is decided before the fingerprint', async () => {
    const db = world(nodeIdempotency);
    const both = await Promise.all([
      nodeIdempotency.call(db, alice, request('r1', 999, 30)),
      nodeIdempotency.call(db, alice, request('r1', 999, 60)),
    ]);
    expect(both).toEqual([outcome.refused('unavailable'), outcome.refused('conflict')]);
  });
});

describe.each(PLUGINS)(
  'F2 %s: the store failing between claim and completion',
  (_n, plugin, table) => {
    it('reports error but keeps the row change without a receipt, and locks the key', async () => {
      const db = world(plugin);
      const r = request('r1', 1);
      const pending = plugin.call(db, alice, r);
      await untilClaimed(db, table);
      plugin.failReceipts(db);
      const first = await pending;
      plugin.restoreReceipts(db);
      const retry = await plugin.call(db, alice, r);
      expect(first.kind).toBe('error');
      expect(retry).toEqual(outcome.refused('conflict'));
      const snapshot = plugin.snapshot(db);
      expect((snapshot as SetIntervalSnapshot).automations.find((a) => a.id === 1)?.version).toBe(
        2,
      );
      expect(snapshot.receipts).toEqual([]);
      const event = (delivery: CallEvent['delivery']): CallEvent => ({
        kind: 'call',
        client: 0,
        request: r,
        delivery,
      });
      const violations = checkInvariants({
        spec: setIntervalSpec,
        fixture: DEFAULT_FIXTURE,
        steps: [event('delivered'), event('delivered')],
        trace: {
          observations: [
            { step: 0, lane: 0, event: event('delivered'), observed: first },
            { step: 1, lane: 0, event: event('delivered'), observed: retry },
          ],
          snapshot,
        },
      });
      expect(violations.map((v) => v.invariant)).toContain(ROW_CHANGE_HAS_RECEIPT);
    });
  },
);

describe('F2: a failing business write', () => {
  /** Makes the business write itself fail, as a failing database does. */
  const failRowWrites = (db: Connection) =>
    db.exec(
      `CREATE TRIGGER fail_rows BEFORE UPDATE ON automations BEGIN SELECT RAISE(ABORT, 'down'); END`,
    );

  it('powertools: error, the claim is deleted, the retry is fresh (as the contract says)', async () => {
    const db = world(powertools);
    failRowWrites(db);
    expect((await powertools.call(db, alice, request('r1', 1))).kind).toBe('error');
    db.exec('DROP TRIGGER fail_rows');
    expect(await powertools.call(db, alice, request('r1', 1))).toEqual(
      outcome.fresh({ id: 1, intervalMinutes: 30, version: 2 }),
    );
  });

  it('node-idempotency: error, but the claim stays and the retry is refused as in progress', async () => {
    const db = world(nodeIdempotency);
    failRowWrites(db);
    expect((await nodeIdempotency.call(db, alice, request('r1', 1))).kind).toBe('error');
    db.exec('DROP TRIGGER fail_rows');
    expect(await nodeIdempotency.call(db, alice, request('r1', 1))).toEqual(
      outcome.refused('conflict'),
    );
  });
});

describe('F2: how long the orphaned claim locks the key', () => {
  async function orphanClaim(plugin: HandlerPlugin, table: string, db: Connection) {
    const pending = plugin.call(db, alice, request('r1', 1));
    await untilClaimed(db, table);
    plugin.failReceipts(db);
    expect((await pending).kind).toBe('error');
    plugin.restoreReceipts(db);
  }

  it('powertools: until the in-progress expiry, then the retry re-runs and is refused', async () => {
    const db = world(powertools);
    await orphanClaim(powertools, POWERTOOLS_TABLE, db);
    powertools.advanceClock?.(db, CALL_BUDGET_MS + 1);
    expect(await powertools.call(db, alice, request('r1', 1))).toEqual(outcome.refused('conflict'));
    // The re-run's refusal deleted the record: the key is free, the write still has no receipt.
    expect(db.prepare(`SELECT count(*) AS n FROM ${POWERTOOLS_TABLE}`).get()).toEqual({ n: 0 });
  });

  it('node-idempotency: for the whole cacheTTLMS, every retry is refused as in progress', async () => {
    const db = world(nodeIdempotency);
    await orphanClaim(nodeIdempotency, NODE_IDEMPOTENCY_TABLE, db);
    nodeIdempotency.advanceClock?.(db, 24 * 3600 * 1000 - 1000);
    expect(await nodeIdempotency.call(db, alice, request('r1', 1))).toEqual(
      outcome.refused('conflict'),
    );
    const row = db.prepare(`SELECT value FROM ${NODE_IDEMPOTENCY_TABLE}`).get() as {
      value: string;
    };
    expect(JSON.parse(row.value).status).toBe('IN_PROGRESS');
  });
});

describe.each([
  ['powertools', powertools, 3600 * 1000],
  ['node-idempotency', nodeIdempotency, 24 * 3600 * 1000],
] as const)('F3 %s: records expire (documented)', (_n, plugin, ttlMs) => {
  it('re-executes a retry after the expiry, which the version check then refuses', async () => {
    // The time is the harness clock's, which the plugins' adapters read; the wall clock's is not.
    const db = world(plugin);
    const r = request('r1', 1);
    expect(await plugin.call(db, alice, r)).toEqual(
      outcome.fresh({ id: 1, intervalMinutes: 30, version: 2 }),
    );
    plugin.advanceClock?.(db, ttlMs - 2000);
    expect((await plugin.call(db, alice, r)).kind).toBe('ok');
    plugin.advanceClock?.(db, 4000);
    expect(await plugin.call(db, alice, r)).toEqual(outcome.refused('conflict'));
  });
});
