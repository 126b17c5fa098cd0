/**
 * A PostgreSQL persistence layer for `@aws-lambda-powertools/idempotency`, to the library's
 * "Bring your own persistent store" contract, as `../powertools-persistence.ts` is for SQLite.
 * Each method does what the bundled `DynamoDBPersistenceLayer` does with the same record, and
 * as atomically: the put is one conditional `INSERT ... ON CONFLICT DO UPDATE ... WHERE`
 * (DynamoDB's `attribute_not_exists OR expired` condition), the update one upsert.
 *
 * Expiry times are kept on the harness's clock, as on SQLite: a time the library set is stored as
 * its lead over the wall clock when written plus the harness clock then, and handed back as its
 * lead over the harness clock now plus the wall clock now. The harness clock is read inside the
 * statement that writes or reads a record (each statement is a scheduled-mode yield point, so a
 * read of its own would shift saved schedules).
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
import {
  POWERTOOLS_TABLE,
  type PowertoolsRow,
  replaceable,
  toRecord,
} from '../powertools-persistence.ts';
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
    return toRecord(row, Date.now() - clockMs);
  }

  /**
   * Adds the record unless a live one holds its key ("Throws an `IdempotencyItemAlreadyExistsError`
   * error if a non-expired entry already exists"): the key is absent, or its record expired, or it
   * is in progress past its in-progress expiry. A live record is read first and refused with no
   * write, as on SQLite, so a store that is failing for writes still answers a duplicate from its
   * record. Otherwise one conditional upsert writes it; if a racing put won in between, the upsert
   * writes nothing and the winner's record is read, as DynamoDB returns it with the failed condition.
   */
  protected async _putRecord(record: IdempotencyRecord): Promise<void> {
    // Read before any statement: the library set the record's times just now, on this clock.
    const wallMs = Date.now();
    const before = await this.#read(record.idempotencyKey);
    if (before.row && !replaceable(before.row, before.clockMs)) this.#refuse(record, before);
    const won = await this.#db.query(
      `INSERT INTO ${POWERTOOLS_TABLE} AS p
         VALUES ($1, $2, $3 + ${CLOCK} / 1000.0, $4 + ${CLOCK}, NULL, $5)
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, expiration = EXCLUDED.expiration,
         in_progress_expiration = EXCLUDED.in_progress_expiration, data = NULL,
         validation = EXCLUDED.validation
       WHERE (p.expiration IS NOT NULL AND p.expiration < ${CLOCK} / 1000.0)
          OR (p.status = 'INPROGRESS' AND p.in_progress_expiration IS NOT NULL
              AND p.in_progress_expiration < ${CLOCK})
       RETURNING id`,
      [
        record.idempotencyKey,
        record.getStatus(),
        lead(record.expiryTimestamp, wallMs / 1000),
        lead(record.inProgressExpiryTimestamp, wallMs),
        this.isPayloadValidationEnabled() ? (record.payloadHash ?? null) : null,
      ],
    );
    if (won.rows.length > 0) return;
    this.#refuse(record, await this.#read(record.idempotencyKey));
  }

  /** Throws the library's "already exists" error for `record`, with the live one when there is one. */
  #refuse(
    record: IdempotencyRecord,
    live: { row: PowertoolsRow | undefined; clockMs: number },
  ): never {
    throw new IdempotencyItemAlreadyExistsError(
      `Failed to put record for already existing idempotency key: ${record.idempotencyKey}`,
      live.row ? toRecord(live.row, Date.now() - live.clockMs) : undefined,
    );
  }

  /** Sets status, expiry, response and payload hash; like DynamoDB's `UpdateItem`, an upsert. */
  protected async _updateRecord(record: IdempotencyRecord): Promise<void> {
    const data = record.responseData === undefined ? null : JSON.stringify(record.responseData);
    const validating = this.isPayloadValidationEnabled();
    const wallMs = Date.now();
    await this.#db.query(
      `INSERT INTO ${POWERTOOLS_TABLE} AS p
         VALUES ($1, $2, $3 + ${CLOCK} / 1000.0, NULL, $4, $5)
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, expiration = EXCLUDED.expiration,
         data = CASE WHEN $6 THEN EXCLUDED.data ELSE p.data END,
         validation = CASE WHEN $7 THEN EXCLUDED.validation ELSE p.validation END`,
      [
        record.idempotencyKey,
        record.getStatus(),
        lead(record.expiryTimestamp, wallMs / 1000),
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

  /** The row under the key (if any) and the harness clock's time, in one statement. */
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

/** How far `time` (set by the library on the wall clock) lies ahead of `wall`; null when unset. */
function lead(time: number | undefined, wall: number): number | null {
  return time === undefined ? null : time - wall;
}
