/**
 * A PostgreSQL persistence layer for `@aws-lambda-powertools/idempotency`, to the library's
 * "Bring your own persistent store" contract, as `../powertools-persistence.ts` is for SQLite.
 * Each method does what the bundled `DynamoDBPersistenceLayer` does with the same record, and
 * as atomically: the put is one conditional `INSERT ... ON CONFLICT DO UPDATE ... WHERE`
 * (DynamoDB's `attribute_not_exists OR expired` condition), the update one upsert.
 *
 * Expiry times are kept on the harness's clock, as on SQLite: the library's time plus the
 * clock's offset, read inside the statement that writes or reads them (each statement is a
 * scheduled-mode yield point, so a read of its own would shift saved schedules).
 */
import {
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
} from '@aws-lambda-powertools/idempotency';
import {
  BasePersistenceLayer,
  type IdempotencyRecord,
} from '@aws-lambda-powertools/idempotency/persistence';
import type { PgConnection } from '../../postgres/plugin.ts';
import { POWERTOOLS_TABLE, type PowertoolsRow, toRecord } from '../powertools-persistence.ts';
import { PG_HARNESS_CLOCK_MS_SQL } from './pg-harness-clock.ts';

/** `CREATE TABLE` for the records: expiration in epoch seconds, in-progress expiry in epoch ms. */
export const POWERTOOLS_PG_SCHEMA = `CREATE TABLE ${POWERTOOLS_TABLE}(
  id TEXT PRIMARY KEY, status TEXT NOT NULL, expiration DOUBLE PRECISION,
  in_progress_expiration DOUBLE PRECISION, data TEXT, validation TEXT)`;

const CLOCK = PG_HARNESS_CLOCK_MS_SQL;

/** A `BasePersistenceLayer` over one harness-owned PostgreSQL connection. */
export class PostgresPersistenceLayer extends BasePersistenceLayer {
  readonly #db: PgConnection;

  constructor(db: PgConnection) {
    super();
    this.#db = db;
  }

  /** The record under `idempotencyKey`; throws `IdempotencyItemNotFoundError` when there is none. */
  protected async _getRecord(idempotencyKey: string): Promise<IdempotencyRecord> {
    const { row, clockMs } = await this.#read(idempotencyKey);
    if (!row) throw new IdempotencyItemNotFoundError(`No record for ${idempotencyKey}`);
    return toRecord(row, clockMs);
  }

  /**
   * Adds the record unless a live one holds its key ("Throws an `IdempotencyItemAlreadyExistsError`
   * error if a non-expired entry already exists"), in one statement: the key is absent, or its
   * record expired, or it is in progress past its in-progress expiry. A losing put writes
   * nothing, then reads the record that won, as DynamoDB returns it with the failed condition.
   */
  protected async _putRecord(record: IdempotencyRecord): Promise<void> {
    const now = Date.now();
    const won = await this.#db.query(
      `INSERT INTO ${POWERTOOLS_TABLE} AS p
         VALUES ($1, $2, $3 + ${CLOCK} / 1000.0, $4 + ${CLOCK}, NULL, $5)
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, expiration = EXCLUDED.expiration,
         in_progress_expiration = EXCLUDED.in_progress_expiration, data = NULL,
         validation = EXCLUDED.validation
       WHERE (p.expiration IS NOT NULL AND p.expiration < ($6 + ${CLOCK}) / 1000.0)
          OR (p.status = 'INPROGRESS' AND p.in_progress_expiration IS NOT NULL
              AND p.in_progress_expiration < $6 + ${CLOCK})
       RETURNING id`,
      [
        record.idempotencyKey,
        record.getStatus(),
        record.expiryTimestamp ?? null,
        record.inProgressExpiryTimestamp ?? null,
        this.isPayloadValidationEnabled() ? (record.payloadHash ?? null) : null,
        now,
      ],
    );
    if (won.rows.length > 0) return;
    const { row, clockMs } = await this.#read(record.idempotencyKey);
    throw new IdempotencyItemAlreadyExistsError(
      `Failed to put record for already existing idempotency key: ${record.idempotencyKey}`,
      row ? toRecord(row, clockMs) : undefined,
    );
  }

  /** Sets status, expiry, response and payload hash; like DynamoDB's `UpdateItem`, an upsert. */
  protected async _updateRecord(record: IdempotencyRecord): Promise<void> {
    const data = record.responseData === undefined ? null : JSON.stringify(record.responseData);
    const validating = this.isPayloadValidationEnabled();
    await this.#db.query(
      `INSERT INTO ${POWERTOOLS_TABLE} AS p
         VALUES ($1, $2, $3 + ${CLOCK} / 1000.0, NULL, $4, $5)
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, expiration = EXCLUDED.expiration,
         data = CASE WHEN $6 THEN EXCLUDED.data ELSE p.data END,
         validation = CASE WHEN $7 THEN EXCLUDED.validation ELSE p.validation END`,
      [
        record.idempotencyKey,
        record.getStatus(),
        record.expiryTimestamp ?? null,
        data,
        validating ? (record.payloadHash ?? null) : null,
        data !== null,
        validating,
      ],
    );
  }

  /** Removes the record under the key (a no-op when there is none). */
  protected async _deleteRecord(record: IdempotencyRecord): Promise<void> {
    await this.#db.query(`DELETE FROM ${POWERTOOLS_TABLE} WHERE id = $1`, [record.idempotencyKey]);
  }

  /** The row under the key (if any) and the clock's offset, in one statement. */
  async #read(
    idempotencyKey: string,
  ): Promise<{ row: PowertoolsRow | undefined; clockMs: number }> {
    const { rows } = await this.#db.query<PowertoolsRow & { clock_ms: number | null }>(
      `SELECT ${CLOCK} AS clock_ms, p.* FROM (SELECT 1) AS one
         LEFT JOIN ${POWERTOOLS_TABLE} p ON p.id = $1`,
      [idempotencyKey],
    );
    const { clock_ms, ...row } = rows[0] as PowertoolsRow & { clock_ms: number | null };
    return { row: row.id === null ? undefined : row, clockMs: clock_ms ?? 0 };
  }
}
