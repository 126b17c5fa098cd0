/**
 * The SQLite storage adapter against the `StorageAdapter` interface of `@node-idempotency/storage`
 * with the semantics of the Redis adapter the library ships (`SET NX PX`, `SET PX`, `GET`), one
 * test per method and rule, then the core's own request cycle on top of it.
 */
import {
  Idempotency,
  IdempotencyError,
  IdempotencyErrorCodes,
  type IdempotencyParams,
} from '@node-idempotency/core';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Connection } from '../plugin.ts';
import { failWrites, restoreWrites } from './library-world.ts';
import {
  NODE_IDEMPOTENCY_SCHEMA,
  NODE_IDEMPOTENCY_TABLE,
  SqliteStorageAdapter,
} from './node-idempotency-storage.ts';

let db: Connection;
let nowMs: number;
let store: SqliteStorageAdapter;

beforeEach(() => {
  db = new Database(':memory:');
  db.exec(NODE_IDEMPOTENCY_SCHEMA);
  nowMs = 1_000_000;
  store = new SqliteStorageAdapter(db, () => nowMs);
});

describe('setIfNotExists (SET NX PX)', () => {
  it('stores and returns true when the key is absent', async () => {
    expect(await store.setIfNotExists('k', 'a', { ttl: 100 })).toBe(true);
    expect(await store.get('k')).toBe('a');
  });

  it('returns false and keeps the value while a live entry holds the key', async () => {
    await store.setIfNotExists('k', 'a', { ttl: 100 });
    nowMs += 99;
    expect(await store.setIfNotExists('k', 'b', { ttl: 100 })).toBe(false);
    expect(await store.get('k')).toBe('a');
  });

  it('treats an expired entry as absent: stores over it and returns true', async () => {
    await store.setIfNotExists('k', 'a', { ttl: 100 });
    nowMs += 100;
    expect(await store.setIfNotExists('k', 'b', { ttl: 100 })).toBe(true);
    expect(await store.get('k')).toBe('b');
  });

  it('keeps an entry stored without a ttl forever', async () => {
    await store.setIfNotExists('k', 'a');
    nowMs += 10 ** 12;
    expect(await store.setIfNotExists('k', 'b')).toBe(false);
  });
});

describe('set (SET PX) and get (GET)', () => {
  it('set replaces the value and restarts the ttl', async () => {
    await store.setIfNotExists('k', 'a', { ttl: 100 });
    nowMs += 90;
    await store.set('k', 'b', { ttl: 100 });
    nowMs += 90;
    expect(await store.get('k')).toBe('b');
  });

  it('get answers undefined for an absent or an expired key', async () => {
    expect(await store.get('none')).toBeUndefined();
    await store.set('k', 'a', { ttl: 5 });
    nowMs += 5;
    expect(await store.get('k')).toBeUndefined();
  });
});

describe('the receipt-store failure', () => {
  it('fails every write, but a claim on a live key still answers false without writing', async () => {
    await store.setIfNotExists('k', 'a', { ttl: 100 });
    failWrites(db, NODE_IDEMPOTENCY_TABLE);
    await expect(store.setIfNotExists('new', 'a', { ttl: 100 })).rejects.toMatchObject({
      code: 'SQLITE_CONSTRAINT_TRIGGER',
    });
    await expect(store.set('k', 'b', { ttl: 100 })).rejects.toThrow('receipt store unavailable');
    expect(await store.setIfNotExists('k', 'b', { ttl: 100 })).toBe(false);
    expect(await store.get('k')).toBe('a');
    restoreWrites(db, NODE_IDEMPOTENCY_TABLE);
    expect(await store.setIfNotExists('new', 'a', { ttl: 100 })).toBe(true);
  });
});

describe("the core's request cycle on the adapter", () => {
  const req = (body: Record<string, unknown>): IdempotencyParams => ({
    method: 'POST',
    path: '/p',
    headers: { 'idempotency-key': 'r1' },
    body,
  });
  const code = (thrown: unknown) => (thrown instanceof IdempotencyError ? thrown.code : thrown);

  it('new, in progress, cached, fingerprint mismatch', async () => {
    const idempotency = new Idempotency(store, { enforceIdempotency: true });
    expect(await idempotency.onRequest(req({ a: 1 }))).toBeUndefined();
    const during = await idempotency.onRequest(req({ a: 1 })).catch(code);
    expect(during).toBe(IdempotencyErrorCodes.REQUEST_IN_PROGRESS);
    await idempotency.onResponse(req({ a: 1 }), { body: { done: true } });
    expect(await idempotency.onRequest(req({ a: 1 }))).toEqual({ body: { done: true } });
    const changed = await idempotency.onRequest(req({ a: 2 })).catch(code);
    expect(changed).toBe(IdempotencyErrorCodes.IDEMPOTENCY_FINGERPRINT_MISSMATCH);
  });
});
