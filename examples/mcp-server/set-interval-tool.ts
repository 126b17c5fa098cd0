/**
 * The article's `set_interval` tool on a SQLite file, as a service would write it: the contract's
 * checks in its order (scope, request id, ids, interval), then one `BEGIN IMMEDIATE` transaction
 * that checks current access, looks the receipt up, checks the version, writes the row and its
 * receipt together. A new connection per call, so the file the harness resets between runs is
 * always the one in use. Plain functions of a path, a principal and the arguments: the MCP server
 * (`server.ts`) only carries them.
 *
 * `keyWithoutUser` plants the bug the example's second description asks for: the receipt lookup
 * leaves the user out of the key, so one user of a workspace meets another's receipt.
 */
import Database from 'better-sqlite3';

/** The tool revision in every receipt key. */
export const TOOL_REVISION = 'set_interval.v1';

/** The scope a caller needs. */
export const WRITE_SCOPE = 'automation:write';

/** Who calls: trusted context, never an argument. */
export interface Caller {
  readonly user: string;
  readonly workspace: string;
  readonly scopes: readonly string[];
}

/** What a call comes to, as the answer's structured content. */
export type ToolAnswer =
  | { outcome: 'ok'; replayed: boolean; result: SetIntervalResult }
  | { outcome: 'refused'; reason: 'forbidden' | 'unavailable' | 'conflict' }
  | { outcome: 'keyReuse' }
  | { outcome: 'invalid'; field: string }
  | { outcome: 'error'; message: string };

/** The row after the write. */
export interface SetIntervalResult {
  id: number;
  intervalMinutes: number;
  version: number;
}

/** The input schema `tools/list` shows: the same rules the tool applies. */
export const INPUT_SCHEMA = {
  type: 'object',
  properties: {
    requestId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
    automationId: { type: 'integer', minimum: 1 },
    expectedVersion: { type: 'integer', minimum: 1 },
    intervalMinutes: { type: 'integer', minimum: 5, maximum: 1440 },
  },
  required: ['requestId', 'automationId', 'expectedVersion', 'intervalMinutes'],
} as const;

const REQUEST_ID = /^[A-Za-z0-9_-]{1,64}$/;

const isId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 1;

/** One call of the tool on the database at `path`. */
export function setInterval(
  path: string,
  caller: Caller | undefined,
  args: Readonly<Record<string, unknown>>,
  keyWithoutUser = false,
): ToolAnswer {
  if (!caller?.scopes.includes(WRITE_SCOPE)) return { outcome: 'refused', reason: 'forbidden' };
  const { requestId, automationId, expectedVersion, intervalMinutes } = args;
  if (typeof requestId !== 'string' || !REQUEST_ID.test(requestId))
    return { outcome: 'invalid', field: 'requestId' };
  if (!isId(automationId)) return { outcome: 'invalid', field: 'automationId' };
  if (!isId(expectedVersion)) return { outcome: 'invalid', field: 'expectedVersion' };
  if (
    !Number.isSafeInteger(intervalMinutes) ||
    (intervalMinutes as number) < 5 ||
    (intervalMinutes as number) > 1440
  )
    return { outcome: 'invalid', field: 'intervalMinutes' };
  const interval = intervalMinutes as number;
  const payload = JSON.stringify({ id: automationId, interval, version: expectedVersion });
  const db = new Database(path, { timeout: 5_000 });
  try {
    db.exec('BEGIN IMMEDIATE');
    try {
      const answer = write(
        db,
        caller,
        requestId,
        automationId,
        expectedVersion,
        interval,
        payload,
        keyWithoutUser,
      );
      db.exec(answer.outcome === 'ok' ? 'COMMIT' : 'ROLLBACK');
      return answer;
    } catch (thrown) {
      if (db.inTransaction) db.exec('ROLLBACK');
      return {
        outcome: 'error',
        message: thrown instanceof Error ? thrown.message : String(thrown),
      };
    }
  } finally {
    db.close();
  }
}

function write(
  db: Database.Database,
  caller: Caller,
  requestId: string,
  id: number,
  expectedVersion: number,
  interval: number,
  payload: string,
  keyWithoutUser: boolean,
): ToolAnswer {
  const owned = db
    .prepare('SELECT 1 FROM automations WHERE id = ? AND workspace = ?')
    .get(id, caller.workspace);
  if (!owned) return { outcome: 'refused', reason: 'unavailable' };
  const receipt = (
    keyWithoutUser
      ? db
          .prepare(
            'SELECT payload, result FROM receipts WHERE workspace = ? AND tool = ? AND request_id = ?',
          )
          .get(caller.workspace, TOOL_REVISION, requestId)
      : db
          .prepare(
            'SELECT payload, result FROM receipts WHERE workspace = ? AND user_id = ? AND tool = ? AND request_id = ?',
          )
          .get(caller.workspace, caller.user, TOOL_REVISION, requestId)
  ) as { payload: string; result: string } | undefined;
  if (receipt) {
    if (receipt.payload !== payload) return { outcome: 'keyReuse' };
    // The stored result, as committed: never a fresh read of the row.
    return {
      outcome: 'ok',
      replayed: true,
      result: JSON.parse(receipt.result) as SetIntervalResult,
    };
  }
  const row = db
    .prepare(
      `UPDATE automations SET interval_minutes = ?, version = version + 1
       WHERE id = ? AND workspace = ? AND version = ? RETURNING id, interval_minutes, version`,
    )
    .get(interval, id, caller.workspace, expectedVersion) as
    | { id: number; interval_minutes: number; version: number }
    | undefined;
  if (!row) return { outcome: 'refused', reason: 'conflict' };
  const result = { id: row.id, intervalMinutes: row.interval_minutes, version: row.version };
  db.prepare('INSERT INTO receipts VALUES (?, ?, ?, ?, ?, ?)').run(
    caller.workspace,
    caller.user,
    TOOL_REVISION,
    requestId,
    payload,
    JSON.stringify(result),
  );
  return { outcome: 'ok', replayed: false, result };
}
