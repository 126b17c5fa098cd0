/**
 * A better-sqlite3 persistence layer for `@aws-lambda-powertools/idempotency`, written to the
 * library's "Bring your own persistent store" contract: extend `BasePersistenceLayer` and
 * implement `_getRecord`, `_putRecord`, `_updateRecord` and `_deleteRecord`. Each method mirrors
 * what the bundled `DynamoDBPersistenceLayer` does with the same record, on the harness-owned
 * connection: the put is conditional, the update an upsert, and a missing record on get throws
 * `IdempotencyItemNotFoundError`.
 */
import {
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
  IdempotencyRecordStatus,
} from '@aws-lambda-powertools/idempotency';
import {
  BasePersistenceLayer,
  IdempotencyRecord,
} from '@aws-lambda-powertools/idempotency/persistence';
import type { IdempotencyRecordStatusValue } from '@aws-lambda-powertools/idempotency/types';
import type { Connection } from '../plugin.ts';
import { cachedStatement } from '../statement-cache.ts';

/** The table the layer keeps its records in (DynamoDB's default attribute names). */
export const POWERTOOLS_TABLE = 'powertools_idempotency';

/** `CREATE TABLE` for the records: expiration in epoch seconds, in-progress expiry in epoch ms. */
export const POWERTOOLS_SCHEMA = `CREATE TABLE ${POWERTOOLS_TABLE}(
  id TEXT PRIMARY KEY, status TEXT NOT NULL, expiration INTEGER,
  in_progress_expiration INTEGER, data TEXT, validation TEXT)`;

/** One row of the table. */
export interface PowertoolsRow {
  readonly id: string;
  readonly status: string;
  readonly expiration: number | null;
  readonly in_progress_expiration: number | null;
  /** The response, JSON serialised (the docs: "invocation results are JSON serialized"). */
  readonly data: string | null;
  readonly validation: string | null;
}

/**
 * A `BasePersistenceLayer` over one better-sqlite3 connection.
 *
 * The library reads the wall clock (`Date.now()`) to set and check expiry times; the harness's
 * clock may be ahead of it (`harness-clock.ts`). So the layer stores expiry times on the
 * harness's clock (the library's plus the offset when written) and hands them back on the
 * library's (minus the offset when read): a record then expires when the harness's clock,
 * not the wall clock, passes its time. The offset is read inside the statements the layer runs
 * anyway, never by a statement of its own: each statement is a scheduled-mode yield point, and an
 * extra one would move a saved schedule's crash to another statement.
 */
export class SqlitePersistenceLayer extends BasePersistenceLayer {
  readonly #db: Connection;
  readonly #clockSql: string;

  /**
   * Stores records through `db`, which the harness opened; the layer never opens its own.
   * `clockSql` is an SQL expression for how many ms the harness's clock is ahead of the wall clock
   * (`HARNESS_CLOCK_MS_SQL`; default `0`, not at all).
   */
  constructor(db: Connection, clockSql = '0') {
    super();
    this.#db = db;
    this.#clockSql = clockSql;
  }

  /** The record under `idempotencyKey`; throws `IdempotencyItemNotFoundError` when there is none. */
  protected async _getRecord(idempotencyKey: string): Promise<IdempotencyRecord> {
    const { row, clockMs } = this.#read(idempotencyKey);
    if (!row) throw new IdempotencyItemNotFoundError(`No record for ${idempotencyKey}`);
    return toRecord(row, clockMs);
  }

  /**
   * Adds the record unless a live one holds its key, as the docs require: "Throws an
   * `IdempotencyItemAlreadyExistsError` error if a non-expired entry already exists". The
   * condition is DynamoDB's: the key is absent, or its record expired, or it is in progress
   * past its in-progress expiry. Check and write share one immediate transaction, so two
   * connections cannot both win; a losing put writes nothing (so it still works while writes fail).
   */
  protected async _putRecord(record: IdempotencyRecord): Promise<void> {
    const put = this.#db.transaction(() => {
      const { row: old, clockMs: offset } = this.#read(record.idempotencyKey);
      if (old && !replaceable(old, Date.now() + offset)) {
        throw new IdempotencyItemAlreadyExistsError(
          `Failed to put record for already existing idempotency key: ${record.idempotencyKey}`,
          toRecord(old, offset),
        );
      }
      if (old)
        cachedStatement(this.#db, `DELETE FROM ${POWERTOOLS_TABLE} WHERE id = ?`).run(old.id);
      cachedStatement(this.#db, `INSERT INTO ${POWERTOOLS_TABLE} VALUES (?, ?, ?, ?, NULL, ?)`).run(
        record.idempotencyKey,
        record.getStatus(),
        onHarnessClock(record.expiryTimestamp, offset / 1000),
        onHarnessClock(record.inProgressExpiryTimestamp, offset),
        this.isPayloadValidationEnabled() ? (record.payloadHash ?? null) : null,
      );
    });
    put.immediate();
  }

  /**
   * Sets status and expiry, the response when there is one, and the payload hash when validation
   * is on. Like DynamoDB's `UpdateItem`, it creates the record if it is missing.
   */
  protected async _updateRecord(record: IdempotencyRecord): Promise<void> {
    const data = record.responseData === undefined ? null : JSON.stringify(record.responseData);
    const validation = this.isPayloadValidationEnabled() ? (record.payloadHash ?? null) : null;
    // The expiration moves onto the harness's clock in SQL, in the statement that writes it.
    const expiration = `? + ${this.#clockSql} / 1000.0`;
    const update = this.#db.transaction(() => {
      const changed = cachedStatement(
        this.#db,
        `UPDATE ${POWERTOOLS_TABLE} SET status = ?, expiration = ${expiration},
           data = CASE WHEN ? THEN ? ELSE data END,
           validation = CASE WHEN ? THEN ? ELSE validation END WHERE id = ?`,
      ).run(
        record.getStatus(),
        record.expiryTimestamp ?? null,
        data === null ? 0 : 1,
        data,
        this.isPayloadValidationEnabled() ? 1 : 0,
        validation,
        record.idempotencyKey,
      ).changes;
      if (changed > 0) return;
      cachedStatement(
        this.#db,
        `INSERT INTO ${POWERTOOLS_TABLE} VALUES (?, ?, ${expiration}, NULL, ?, ?)`,
      ).run(
        record.idempotencyKey,
        record.getStatus(),
        record.expiryTimestamp ?? null,
        data,
        validation,
      );
    });
    update.immediate();
  }

  /** Removes the record under the key (a no-op when there is none). */
  protected async _deleteRecord(record: IdempotencyRecord): Promise<void> {
    cachedStatement(this.#db, `DELETE FROM ${POWERTOOLS_TABLE} WHERE id = ?`).run(
      record.idempotencyKey,
    );
  }

  /**
   * The row under the key (if any) and the harness clock's offset, in one statement: the left join
   * from a one-row select gives the offset even when there is no row.
   */
  #read(idempotencyKey: string): { row: PowertoolsRow | undefined; clockMs: number } {
    const { clock_ms, ...row } = cachedStatement(
      this.#db,
      `SELECT ${this.#clockSql} AS clock_ms, p.* FROM (SELECT 1)
         LEFT JOIN ${POWERTOOLS_TABLE} p ON p.id = ?`,
    ).get(idempotencyKey) as PowertoolsRow & { clock_ms: number | null };
    return { row: row.id === null ? undefined : row, clockMs: clock_ms ?? 0 };
  }
}

/**
 * Whether a put may overwrite `row` at `nowMs` (on the harness's clock): expired, or in progress
 * past its in-progress expiry.
 */
export function replaceable(row: PowertoolsRow, nowMs: number): boolean {
  if (row.expiration !== null && row.expiration < nowMs / 1000) return true;
  return (
    row.status === IdempotencyRecordStatus.INPROGRESS &&
    row.in_progress_expiration !== null &&
    row.in_progress_expiration < nowMs
  );
}

/** A time the library set (on its clock), on the harness's clock `offset` ahead; null when unset. */
function onHarnessClock(time: number | undefined, offset: number): number | null {
  return time === undefined ? null : time + offset;
}

/**
 * A row as the library's record, its expiry times back on the library's clock: `offsetMs`
 * behind the harness's, which the row keeps them on.
 */
export function toRecord(row: PowertoolsRow, offsetMs = 0): IdempotencyRecord {
  return new IdempotencyRecord({
    idempotencyKey: row.id,
    status: row.status as IdempotencyRecordStatusValue,
    ...(row.expiration !== null ? { expiryTimestamp: row.expiration - offsetMs / 1000 } : {}),
    ...(row.in_progress_expiration !== null
      ? { inProgressExpiryTimestamp: row.in_progress_expiration - offsetMs }
      : {}),
    ...(row.data !== null ? { responseData: JSON.parse(row.data) } : {}),
    ...(row.validation !== null ? { payloadHash: row.validation } : {}),
  });
}
