/**
 * The SQLite persistence layer against the contract the Powertools docs give each method
 * ("Bring your own persistent store") and the conditions of the bundled DynamoDB layer: one test
 * per method and rule, then the library's own flow through the public base-class API.
 */
import {
  IdempotencyConfig,
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
  IdempotencyValidationError,
} from '@aws-lambda-powertools/idempotency';
import { IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import type { IdempotencyRecordOptions } from '@aws-lambda-powertools/idempotency/types';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Connection } from '../plugin.ts';
import { failWrites, restoreWrites } from './library-world.ts';
import {
  POWERTOOLS_SCHEMA,
  POWERTOOLS_TABLE,
  type PowertoolsRow,
  SqlitePersistenceLayer,
} from './powertools-persistence.ts';

/** The layer with its protected methods opened up for the tests. */
class Exposed extends SqlitePersistenceLayer {
  get = (key: string) => this._getRecord(key);
  put = (record: IdempotencyRecord) => this._putRecord(record);
  update = (record: IdempotencyRecord) => this._updateRecord(record);
  remove = (record: IdempotencyRecord) => this._deleteRecord(record);
}

const nowS = () => Math.round(Date.now() / 1000);
const inProgress = (key: string, extra: Partial<IdempotencyRecordOptions> = {}) =>
  new IdempotencyRecord({
    idempotencyKey: key,
    status: 'INPROGRESS',
    expiryTimestamp: nowS() + 3600,
    payloadHash: 'hash-a',
    ...extra,
  });

let db: Connection;
let layer: Exposed;
const row = (key: string) =>
  db.prepare(`SELECT * FROM ${POWERTOOLS_TABLE} WHERE id = ?`).get(key) as
    | PowertoolsRow
    | undefined;

beforeEach(() => {
  db = new Database(':memory:');
  db.exec(POWERTOOLS_SCHEMA);
  layer = new Exposed(db);
  layer.configure({ config: new IdempotencyConfig({ payloadValidationJmesPath: 'p' }) });
});

describe('_putRecord: "Adds a record ... if it doesn\'t already exist with that key"', () => {
  it('inserts a new record that _getRecord reads back field for field', async () => {
    await layer.put(inProgress('k', { inProgressExpiryTimestamp: Date.now() + 5000 }));
    const back = await layer.get('k');
    expect(back.getStatus()).toBe('INPROGRESS');
    expect(back.payloadHash).toBe('hash-a');
    expect(back.inProgressExpiryTimestamp).toBe(row('k')?.in_progress_expiration);
    expect(back.expiryTimestamp).toBe(row('k')?.expiration);
  });

  it('throws IdempotencyItemAlreadyExistsError with the existing record when a live one holds the key', async () => {
    await layer.put(inProgress('k'));
    const error = await layer.put(inProgress('k', { payloadHash: 'hash-b' })).catch((e) => e);
    expect(error).toBeInstanceOf(IdempotencyItemAlreadyExistsError);
    expect(error.existingRecord.payloadHash).toBe('hash-a');
    expect(row('k')?.validation).toBe('hash-a');
  });

  it('overwrites a record whose expiry has passed', async () => {
    await layer.put(inProgress('k', { expiryTimestamp: nowS() - 10 }));
    await layer.put(inProgress('k', { payloadHash: 'hash-b' }));
    expect(row('k')?.validation).toBe('hash-b');
  });

  it('overwrites an in-progress record past its in-progress expiry, not a completed one', async () => {
    await layer.put(inProgress('a', { inProgressExpiryTimestamp: Date.now() - 1 }));
    await layer.put(inProgress('a', { payloadHash: 'hash-b' }));
    expect(row('a')?.validation).toBe('hash-b');
    db.prepare(`INSERT INTO ${POWERTOOLS_TABLE} VALUES ('c', 'COMPLETED', ?, ?, '1', 'h')`).run(
      nowS() + 3600,
      Date.now() - 1,
    );
    await expect(layer.put(inProgress('c'))).rejects.toBeInstanceOf(
      IdempotencyItemAlreadyExistsError,
    );
  });
});

describe('_getRecord, _updateRecord, _deleteRecord', () => {
  it('_getRecord throws IdempotencyItemNotFoundError for a missing key', async () => {
    await expect(layer.get('nope')).rejects.toBeInstanceOf(IdempotencyItemNotFoundError);
  });

  it('_updateRecord sets status, expiry and the JSON response, keeping the record', async () => {
    await layer.put(inProgress('k'));
    const done = new IdempotencyRecord({
      idempotencyKey: 'k',
      status: 'COMPLETED',
      expiryTimestamp: nowS() + 60,
      responseData: { a: [1, 2] },
      payloadHash: 'hash-a',
    });
    await layer.update(done);
    const back = await layer.get('k');
    expect(back.getStatus()).toBe('COMPLETED');
    expect(back.getResponse()).toEqual({ a: [1, 2] });
    expect(back.expiryTimestamp).toBe(done.expiryTimestamp);
  });

  it('_updateRecord creates a missing record, as DynamoDB UpdateItem does', async () => {
    await layer.update(inProgress('k', { status: 'COMPLETED', responseData: 7 }));
    expect((await layer.get('k')).getResponse()).toBe(7);
  });

  it('_deleteRecord removes the record, and is a no-op for a missing one', async () => {
    await layer.put(inProgress('k'));
    await layer.remove(inProgress('k'));
    await layer.remove(inProgress('k'));
    expect(row('k')).toBeUndefined();
  });
});

describe('the receipt-store failure', () => {
  it('makes puts, updates and deletes fail while a losing put still reports the existing record', async () => {
    await layer.put(inProgress('k'));
    failWrites(db, POWERTOOLS_TABLE);
    await expect(layer.put(inProgress('new'))).rejects.toMatchObject({
      code: 'SQLITE_CONSTRAINT_TRIGGER',
    });
    await expect(layer.update(inProgress('k'))).rejects.toMatchObject({
      code: 'SQLITE_CONSTRAINT_TRIGGER',
    });
    await expect(layer.remove(inProgress('k'))).rejects.toThrow('receipt store unavailable');
    await expect(layer.put(inProgress('k'))).rejects.toBeInstanceOf(
      IdempotencyItemAlreadyExistsError,
    );
    restoreWrites(db, POWERTOOLS_TABLE);
    await layer.put(inProgress('new'));
    expect(row('new')).toBeDefined();
  });
});

describe("the library's own flow through the base class", () => {
  it('saveInProgress, saveSuccess, getRecord; a changed payload fails validation', async () => {
    const store = new SqlitePersistenceLayer(db);
    store.configure({
      config: new IdempotencyConfig({ eventKeyJmesPath: 'key', payloadValidationJmesPath: 'p' }),
    });
    await store.saveInProgress({ key: 'x', p: 1 }, 5000);
    await expect(store.saveInProgress({ key: 'x', p: 1 }, 5000)).rejects.toBeInstanceOf(
      IdempotencyItemAlreadyExistsError,
    );
    await store.saveSuccess({ key: 'x', p: 1 }, { ok: true });
    expect((await store.getRecord({ key: 'x', p: 1 })).getResponse()).toEqual({ ok: true });
    await expect(store.getRecord({ key: 'x', p: 2 })).rejects.toBeInstanceOf(
      IdempotencyValidationError,
    );
    await store.deleteRecord({ key: 'x', p: 1 });
    await expect(store.getRecord({ key: 'x', p: 1 })).rejects.toBeInstanceOf(
      IdempotencyItemNotFoundError,
    );
  });
});
