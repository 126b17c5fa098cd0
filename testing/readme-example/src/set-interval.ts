/**
 * The handler docs/plugins.md's plugin example wraps (`./src/set-interval.ts` there): `set_interval`
 * as an application would write it on better-sqlite3, keeping the retry-receipt contract
 * (docs/contract.md). It stands for the user's own code, so it imports nothing from receiptcheck;
 * `testing/readme-example.test.ts` runs that plugin over it.
 */
import type Database from 'better-sqlite3';

/** The principal lacks the write scope (rule 1). */
export class Forbidden extends Error {}
/** No such automation in the caller's workspace (rule 6). */
export class NotFound extends Error {}
/** The expected version is not the current one (rule 8). */
export class Conflict extends Error {}
/** The request id is already bound to another payload (rule 7). */
export class KeyReuse extends Error {}
/** An argument broke its validation rule (rules 2–4). */
export class Invalid extends Error {
  constructor(
    readonly field: 'requestId' | 'automationId' | 'expectedVersion' | 'intervalMinutes',
  ) {
    super(`invalid ${field}`);
  }
}

/** Who calls: what the application's auth layer vouches for. */
export interface Caller {
  readonly user: string;
  readonly workspace: string;
  readonly scopes: readonly string[];
}

/** The tool call's raw arguments, as they arrive. */
export interface SetIntervalRequest {
  readonly requestId: unknown;
  readonly automationId: unknown;
  readonly expectedVersion: unknown;
  readonly intervalMinutes: unknown;
}

/** The automation row after a write. */
export interface Row {
  readonly id: number;
  readonly intervalMinutes: number;
  readonly version: number;
}

/** This tool's revision, part of every receipt key. */
const TOOL = 'set_interval.v1';

const isInteger = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * Sets an automation's interval, exactly once per request id: one `BEGIN IMMEDIATE` transaction
 * checks access, then the receipt, then the version, writes the row and stores the receipt. Throws
 * the classes above for refusals, and rolls back before rethrowing any SQLite error.
 */
export function setInterval(
  db: Database.Database,
  caller: Caller,
  request: SetIntervalRequest,
): { row: Row; replayed: boolean } {
  if (!caller.scopes.includes('automation:write')) throw new Forbidden();
  const { requestId, automationId, expectedVersion, intervalMinutes } = request;
  if (typeof requestId !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(requestId))
    throw new Invalid('requestId');
  if (!isInteger(automationId) || automationId < 1) throw new Invalid('automationId');
  if (!isInteger(expectedVersion) || expectedVersion < 1) throw new Invalid('expectedVersion');
  if (!isInteger(intervalMinutes) || intervalMinutes < 5 || intervalMinutes > 1440)
    throw new Invalid('intervalMinutes');
  const key = [caller.workspace, caller.user, TOOL, requestId];
  const payload = JSON.stringify({
    id: automationId,
    version: expectedVersion,
    interval: intervalMinutes,
  });
  db.exec('BEGIN IMMEDIATE');
  try {
    const visible = db
      .prepare('SELECT 1 FROM automations WHERE id = ? AND workspace_id = ?')
      .get(automationId, caller.workspace);
    if (!visible) throw new NotFound();
    const stored = db
      .prepare(
        'SELECT payload, response FROM receipts WHERE workspace_id = ? AND user_id = ? AND tool = ? AND request_id = ?',
      )
      .get(...key) as { payload: string; response: string } | undefined;
    if (stored) {
      if (stored.payload !== payload) throw new KeyReuse();
      db.exec('COMMIT');
      return { row: JSON.parse(stored.response) as Row, replayed: true };
    }
    const row = db
      .prepare(
        `UPDATE automations SET interval_minutes = ?, version = version + 1
         WHERE id = ? AND version = ? RETURNING id, interval_minutes AS intervalMinutes, version`,
      )
      .get(intervalMinutes, automationId, expectedVersion) as Row | undefined;
    if (!row) throw new Conflict();
    db.prepare('INSERT INTO receipts VALUES (?, ?, ?, ?, ?, ?)').run(
      ...key,
      payload,
      JSON.stringify({ id: row.id, intervalMinutes: row.intervalMinutes, version: row.version }),
    );
    db.exec('COMMIT');
    return { row, replayed: false };
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  }
}
