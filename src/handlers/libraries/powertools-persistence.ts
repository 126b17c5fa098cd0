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
import { cachedStatement } from '../sqlite/statement-cache.ts';

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
 * clock (`harness-clock.ts`) is the only time the model knows: it starts at 0 and moves only by
 * clock advances. So the layer keeps expiry times on the harness's clock: a time the library set
 * is stored as how far it lay ahead of the wall clock when written, plus the harness clock then,
 * and handed back as how far it lies ahead of the harness clock now, plus the wall clock now. The
 * library computes a time and hands it over in the same synchronous stretch, so only
 * microseconds of wall time leak in: a record expires when the harness's clock passes its time,
 * however long the run takes on the wall clock. The harness clock is read inside the statements
 * the layer runs anyway, never by a statement of its own: each statement is a scheduled-mode
 * yield point, and an extra one would move a saved schedule's crash to another statement.
 */
export class SqlitePersistenceLayer extends BasePersistenceLayer {
  readonly #db: Connection;
  readonly #clockSql: string | undefined;

  /**
   * Stores records through `db`, which the harness opened; the layer never opens its own.
   * `clockSql` is an SQL expression for the harness clock's time in ms (`HARNESS_CLOCK_MS_SQL`;
   * without it there is no harness clock, and times stay on the wall clock, as the library set them).
   */
  constructor(db: Connection, clockSql?: string) {
    super();
    this.#db = db;
    this.#clockSql = clockSql;
  }

  /** The record under `idempotencyKey`; throws `IdempotencyItemNotFoundError` when there is none. */
  protected async _getRecord(idempotencyKey: string): Promise<IdempotencyRecord> {
    const { row, clockMs } = this.#read(idempotencyKey);
    if (!row) throw new IdempotencyItemNotFoundError(`No record for ${idempotencyKey}`);
    return toRecord(row, clockMs === null ? 0 : Date.now() - clockMs);
  }

  /**
   * Adds the record unless a live one holds its key, as the docs require: "Throws an
   * `IdempotencyItemAlreadyExistsError` error if a non-expired entry already exists". The
   * condition is DynamoDB's: the key is absent, or its record expired, or it is in progress
   * past its in-progress expiry. Check and write share one immediate transaction, so two
   * connections cannot both win; a losing put writes nothing (so it still works while writes fail).
   */
  protected async _putRecord(record: IdempotencyRecord): Promise<void> {
    // Read before any statement: the library set the record's times just now, on this clock.
    const wallMs = Date.now();
    const put = this.#db.transaction(() => {
      const { row: old, clockMs } = this.#read(record.idempotencyKey);
      // Harness time minus wall time: what moves a time from the library's clock to the harness's.
      const shift = clockMs === null ? 0 : clockMs - wallMs;
      if (old && !replaceable(old, clockMs ?? wallMs)) {
        throw new IdempotencyItemAlreadyExistsError(
          `Failed to put record for already existing idempotency key: ${record.idempotencyKey}`,
          toRecord(old, -shift),
        );
      }
      if (old)
        cachedStatement(this.#db, `DELETE FROM ${POWERTOOLS_TABLE} WHERE id = ?`).run(old.id);
      cachedStatement(this.#db, `INSERT INTO ${POWERTOOLS_TABLE} VALUES (?, ?, ?, ?, NULL, ?)`).run(
        record.idempotencyKey,
        record.getStatus(),
        onHarnessClock(record.expiryTimestamp, shift / 1000),
        onHarnessClock(record.inProgressExpiryTimestamp, shift),
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
    // The expiration moves onto the harness's clock in SQL, in the statement that writes it: its
    // lead over the wall clock now (read before any statement), plus the harness clock.
    const wallMs = this.#clockSql === undefined ? 0 : Date.now();
    const lead =
      record.expiryTimestamp === undefined ? null : record.expiryTimestamp - wallMs / 1000;
    const expiration = this.#clockSql === undefined ? '?' : `? + ${this.#clockSql} / 1000.0`;
    const update = this.#db.transaction(() => {
      const changed = cachedStatement(
        this.#db,
        `UPDATE ${POWERTOOLS_TABLE} SET status = ?, expiration = ${expiration},
           data = CASE WHEN ? THEN ? ELSE data END,
           validation = CASE WHEN ? THEN ? ELSE validation END WHERE id = ?`,
      ).run(
        record.getStatus(),
        lead,
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
      ).run(record.idempotencyKey, record.getStatus(), lead, data, validation);
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
   * The row under the key (if any) and the harness clock's time, in one statement: the left join
   * from a one-row select gives the time even when there is no row.
   */
  #read(idempotencyKey: string): { row: PowertoolsRow | undefined; clockMs: number | null } {
    const { clock_ms, ...row } = cachedStatement(
      this.#db,
      `SELECT ${this.#clockSql ?? 'NULL'} AS clock_ms, p.* FROM (SELECT 1)
         LEFT JOIN ${POWERTOOLS_TABLE} p ON p.id = ?`,
    ).get(idempotencyKey) as PowertoolsRow & { clock_ms: number | null };
    return { row: row.id === null ? undefined : row, clockMs: clock_ms };
  }
}

/**
 * Whether a put may overwrite `row` at `nowMs` on the harness's clock (its time, not the wall's):
 * expired, or in progress past its in-progress expiry.
 */
export function replaceable(row: PowertoolsRow, nowMs: number): boolean {
  if (row.expiration !== null && row.expiration < nowMs / 1000) return true;
  return (
    row.status === IdempotencyRecordStatus.INPROGRESS &&
    row.in_progress_expiration !== null &&
    row.in_progress_expiration < nowMs
  );
}

/** A time the library set (on its clock), moved by `shift` onto the harness's; null when unset. */
function onHarnessClock(time: number | undefined, shift: number): number | null {
  return time === undefined ? null : time + shift;
}

/**
 * A row as the library's record, its expiry times back on the library's clock: `shiftMs` (wall
 * time minus harness time, now) ahead of the harness's, which the row keeps them on.
 */
export function toRecord(row: PowertoolsRow, shiftMs = 0): IdempotencyRecord {
  return new IdempotencyRecord({
    idempotencyKey: row.id,
    status: row.status as IdempotencyRecordStatusValue,
    ...(row.expiration !== null ? { expiryTimestamp: row.expiration + shiftMs / 1000 } : {}),
    ...(row.in_progress_expiration !== null
      ? { inProgressExpiryTimestamp: row.in_progress_expiration + shiftMs }
      : {}),
    ...(row.data !== null ? { responseData: JSON.parse(row.data) } : {}),
    ...(row.validation !== null ? { payloadHash: row.validation } : {}),
  });
}
