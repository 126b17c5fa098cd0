/**
 * A better-sqlite3 storage adapter for `@node-idempotency/core`, written to the `StorageAdapter`
 * interface of `@node-idempotency/storage` 1.0.5: `setIfNotExists`, `set` and `get`, each with a
 * time to live in milliseconds. The semantics are those of the Redis adapter the library names
 * (`SET key val NX PX ttl`, `SET key val PX ttl`, `GET key`): an expired key is as good as absent.
 * That interface version has no `delete`; the core never releases a key.
 */
import type { StorageAdapter } from '@node-idempotency/storage';
import type { Connection } from '../plugin.ts';
import { cachedStatement } from '../sqlite/statement-cache.ts';

/** The table the adapter keeps its entries in. */
export const NODE_IDEMPOTENCY_TABLE = 'node_idempotency';

/** `CREATE TABLE` for the entries; `expires_at` is epoch ms, NULL for no expiry. */
export const NODE_IDEMPOTENCY_SCHEMA = `CREATE TABLE ${NODE_IDEMPOTENCY_TABLE}(
  key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER)`;

/** One row of the table. */
export interface NodeIdempotencyRow {
  readonly key: string;
  readonly value: string;
  readonly expires_at: number | null;
}

/**
 * A `StorageAdapter` over one harness-owned better-sqlite3 connection.
 *
 * The core hands the adapter a time to live, never a time, so the adapter alone decides what
 * "now" is: the wall clock (`now`), or, given `clockSql`, the harness's clock
 * (`HARNESS_CLOCK_MS_SQL`), read inside the statements the adapter runs anyway (each statement is
 * a scheduled-mode yield point; a read of its own would move a saved schedule's crash). On the
 * harness's clock an entry lives exactly as long as clock advances say, whatever the wall clock does.
 */
export class SqliteStorageAdapter implements StorageAdapter {
  readonly #db: Connection;
  readonly #now: () => number;
  readonly #clockSql: string | undefined;

  /**
   * Stores entries through `db`; `now` (epoch ms) is injectable so tests can age entries;
   * `clockSql`, when given, is the time instead (an SQL expression in ms), and `now` is unused.
   */
  constructor(db: Connection, now: () => number = () => Date.now(), clockSql?: string) {
    this.#db = db;
    this.#now = now;
    this.#clockSql = clockSql;
  }

  /**
   * Stores `val` under `key` only when no live entry holds it; true when it stored. The check and
   * the write share one immediate transaction, so of two connections racing for a key exactly one
   * wins; a call that finds a live entry writes nothing (so it still answers while writes fail).
   */
  async setIfNotExists(key: string, val: string, { ttl }: { ttl?: number } = {}): Promise<boolean> {
    const claim = this.#db.transaction((): boolean => {
      if (this.#live(key)) return false;
      this.#upsert(key, val, ttl);
      return true;
    });
    return claim.immediate();
  }

  /** Stores `val` under `key`, replacing any entry, with a fresh time to live. */
  async set(key: string, val: string, { ttl }: { ttl?: number }): Promise<void> {
    this.#upsert(key, val, ttl);
  }

  /** The live value under `key`, or undefined when there is none or it expired. */
  async get(key: string): Promise<string | undefined> {
    return this.#live(key)?.value;
  }

  #live(key: string): NodeIdempotencyRow | undefined {
    if (this.#clockSql !== undefined) {
      const row = cachedStatement(
        this.#db,
        `SELECT *, ${this.#clockSql} AS now_ms FROM ${NODE_IDEMPOTENCY_TABLE} WHERE key = ?`,
      ).get(key) as (NodeIdempotencyRow & { now_ms: number }) | undefined;
      if (!row) return undefined;
      const { now_ms, ...entry } = row;
      return isLive(entry, now_ms) ? entry : undefined;
    }
    const row = cachedStatement(
      this.#db,
      `SELECT * FROM ${NODE_IDEMPOTENCY_TABLE} WHERE key = ?`,
    ).get(key) as NodeIdempotencyRow | undefined;
    return row && isLive(row, this.#now()) ? row : undefined;
  }

  #upsert(key: string, val: string, ttl: number | undefined): void {
    const lasts = ttl === undefined || Number.isNaN(ttl) ? null : ttl;
    // On the harness's clock the expiry is computed in the statement that writes it.
    const harness = this.#clockSql !== undefined;
    cachedStatement(
      this.#db,
      `INSERT INTO ${NODE_IDEMPOTENCY_TABLE} VALUES (?, ?, ${harness ? `? + ${this.#clockSql}` : '?'})
         ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
    ).run(key, val, lasts === null || harness ? lasts : this.#now() + lasts);
  }
}

/** Whether an entry is still live at `nowMs`. */
export function isLive(row: NodeIdempotencyRow, nowMs: number): boolean {
  return row.expires_at === null || row.expires_at > nowMs;
}
