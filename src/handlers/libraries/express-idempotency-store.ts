/**
 * A better-sqlite3 data adapter for `express-idempotency` 1.0.6, written to its documented
 * interface (`IIdempotencyDataAdapter`: "You can create your own data adapter by implementing the
 * `IIdempotencyDataAdapter` interface"), keeping what its in-memory default keeps: one row per
 * key, the request it was claimed with, and the response once stored. `create` is a plain insert, so a second claim of a key fails on the primary key, as the
 * in-memory default throws `Duplicate`. Every operation is tracked in a `PendingWork`, so the
 * HTTP driver can wait for the writes the library starts after the response is sent.
 */
import type { IdempotencyResource, IIdempotencyDataAdapter } from 'express-idempotency';
import type { Connection } from '../plugin.ts';
import { PendingWork } from './http-driver.ts';

/** The adapter's table. */
export const EXPRESS_IDEMPOTENCY_TABLE = 'express_idempotency';

/** Its schema: the key, the claiming request, and the stored response (null while in progress). */
export const EXPRESS_IDEMPOTENCY_SCHEMA = `CREATE TABLE ${EXPRESS_IDEMPOTENCY_TABLE} (
  idempotency_key TEXT PRIMARY KEY,
  request TEXT NOT NULL,
  response TEXT
)`;

/** A row as stored. */
export interface ExpressIdempotencyRow {
  readonly idempotency_key: string;
  readonly request: string;
  readonly response: string | null;
}

/** `IIdempotencyDataAdapter` on a harness-owned connection. */
export class SqliteDataAdapter implements IIdempotencyDataAdapter {
  /** The adapter's operations still running; the driver waits for them after a response. */
  readonly work = new PendingWork();

  constructor(private readonly db: Connection) {}

  findByIdempotencyKey(key: string): Promise<IdempotencyResource | null> {
    return this.work.track(async () => {
      const row = this.db
        .prepare(`SELECT * FROM ${EXPRESS_IDEMPOTENCY_TABLE} WHERE idempotency_key = ?`)
        .get(key) as ExpressIdempotencyRow | undefined;
      if (!row) return null;
      return {
        idempotencyKey: row.idempotency_key,
        request: JSON.parse(row.request),
        ...(row.response === null ? {} : { response: JSON.parse(row.response) }),
      };
    });
  }

  create(resource: IdempotencyResource): Promise<void> {
    return this.work.track(async () => {
      this.db
        .prepare(
          `INSERT INTO ${EXPRESS_IDEMPOTENCY_TABLE} (idempotency_key, request) VALUES (?, ?)`,
        )
        .run(resource.idempotencyKey, JSON.stringify(resource.request));
    });
  }

  update(resource: IdempotencyResource): Promise<void> {
    return this.work.track(async () => {
      this.db
        .prepare(`UPDATE ${EXPRESS_IDEMPOTENCY_TABLE} SET response = ? WHERE idempotency_key = ?`)
        .run(JSON.stringify(resource.response ?? null), resource.idempotencyKey);
    });
  }

  delete(key: string): Promise<void> {
    return this.work.track(async () => {
      this.db
        .prepare(`DELETE FROM ${EXPRESS_IDEMPOTENCY_TABLE} WHERE idempotency_key = ?`)
        .run(key);
    });
  }
}
