/**
 * The retry-receipt set_interval handler as an HTTP service on PostgreSQL: Node's `node:http` and
 * the `pg` driver, nothing else.
 *
 * Started by receiptcheck from service.json: it listens on 127.0.0.1:$PORT and runs on the
 * database at $DATABASE_URL, which the harness creates, resets and inspects. One request:
 *
 *     POST /set-interval
 *     Idempotency-Key: <request id>
 *     X-User: alice / X-Workspace: team-a / X-Scopes: automation:write (space-separated)
 *     {"automationId": 1, "expectedVersion": 1, "intervalMinutes": 30}
 *
 * Answers: 200 with the row written (and `Idempotent-Replayed: true` on a replay), 400 {"field"}
 * for an invalid argument, 403 forbidden, 404 unavailable, 409 conflict, 422 key reuse, 500 error.
 *
 * One transaction per call, opened before the first read: a lock on the receipt key (so two calls
 * with one key take turns, whatever automation they name), the automation's row locked as it is
 * checked, then the receipt, the versioned update and the new receipt. Each call ends its
 * transaction before it answers, so its pooled connection is idle between calls.
 *
 * With --race the lookup and the write run in two transactions and nothing is locked between
 * them: two calls with one key can both miss the receipt and then both try to write.
 */
import { createServer } from 'node:http';
import pg from 'pg';

const TOOL = 'set_interval.v1';
const SCOPE = 'automation:write';
const REQUEST_ID = /^[A-Za-z0-9_-]{1,64}$/;
const RACE = process.argv.includes('--race');
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 8 });

/** A refusal or an invalid argument, as the HTTP status and body that report it. */
class Answer extends Error {
  constructor(status, body) {
    super(JSON.stringify(body));
    this.status = status;
    this.body = body;
  }
}

const positiveInt = (v) => Number.isSafeInteger(v) && v >= 1;

function validate(principal, requestId, args) {
  if (!principal.scopes.includes(SCOPE)) throw new Answer(403, { reason: 'forbidden' });
  if (typeof requestId !== 'string' || !REQUEST_ID.test(requestId))
    throw new Answer(400, { field: 'requestId' });
  for (const field of ['automationId', 'expectedVersion'])
    if (!positiveInt(args[field])) throw new Answer(400, { field });
  const interval = args.intervalMinutes;
  if (!Number.isSafeInteger(interval) || interval < 5 || interval > 1440)
    throw new Answer(400, { field: 'intervalMinutes' });
  // Stored as JSON text, its keys always in this order, so equal payloads are equal texts.
  return { id: args.automationId, version: args.expectedVersion, interval };
}

/** The access check, then the receipt: its stored result, or undefined. `lock` holds the row. */
async function lookup(db, key, payload, lock) {
  const found = await db.query(
    `SELECT 1 FROM automations WHERE id = $1::bigint AND workspace = $2${lock ? ' FOR UPDATE' : ''}`,
    [payload.id, key[0]],
  );
  if (found.rows.length === 0) throw new Answer(404, { reason: 'unavailable' });
  const old = await db.query(
    'SELECT payload, result FROM receipts WHERE workspace = $1 AND user_id = $2 AND tool = $3 AND request_id = $4',
    key,
  );
  const receipt = old.rows[0];
  if (!receipt) return undefined;
  if (receipt.payload !== JSON.stringify(payload)) throw new Answer(422, { reason: 'key reuse' });
  return JSON.parse(receipt.result);
}

/** The version check, the row change and the receipt: the fresh result. */
async function write(db, key, payload) {
  const updated = await db.query(
    `UPDATE automations SET interval_minutes = $1, version = version + 1
     WHERE id = $2::bigint AND workspace = $3 AND version = $4::bigint
     RETURNING id, interval_minutes, version`,
    [payload.interval, payload.id, key[0], payload.version],
  );
  const row = updated.rows[0];
  if (!row) throw new Answer(409, { reason: 'conflict' });
  const result = { id: row.id, intervalMinutes: row.interval_minutes, version: row.version };
  await db.query('INSERT INTO receipts VALUES ($1, $2, $3, $4, $5, $6)', [
    ...key,
    JSON.stringify(payload),
    JSON.stringify(result),
  ]);
  return result;
}

/** Runs `work` in one transaction on `db`: committed when it returns, rolled back when it throws. */
async function transaction(db, work) {
  await db.query('BEGIN');
  try {
    const value = await work();
    await db.query('COMMIT');
    return value;
  } catch (error) {
    await db.query('ROLLBACK');
    throw error;
  }
}

/** [result, replayed], or throws an Answer; any other error is a 500. */
async function setInterval(principal, requestId, args) {
  const payload = validate(principal, requestId, args);
  const key = [principal.workspace, principal.user, TOOL, requestId];
  const db = await pool.connect();
  // A connection the server ends mid-call (a failover; the harness's crashes) errors once; the
  // call's query fails with it and the call answers 500. Unheard, the error would end the process.
  if (db.listenerCount('error') === 0) db.on('error', () => {});
  try {
    if (RACE) {
      // The planted bug: nothing holds the key between the lookup and the write.
      const stored = await transaction(db, () => lookup(db, key, payload, false));
      if (stored !== undefined) return [stored, true];
      return [await transaction(db, () => write(db, key, payload)), false];
    }
    return await transaction(db, async () => {
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [JSON.stringify(key)]);
      const stored = await lookup(db, key, payload, true);
      return stored !== undefined ? [stored, true] : [await write(db, key, payload), false];
    });
  } finally {
    db.release();
  }
}

function answer(res, status, body, headers = {}) {
  const data = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(data);
}

const server = createServer(async (req, res) => {
  if (req.method !== 'POST' || req.url !== '/set-interval')
    return answer(res, 404, { error: 'no such route' });
  try {
    let text = '';
    for await (const chunk of req) text += chunk;
    let args = JSON.parse(text || '{}');
    if (typeof args !== 'object' || args === null || Array.isArray(args)) args = {};
    const principal = {
      user: req.headers['x-user'] ?? '',
      workspace: req.headers['x-workspace'] ?? '',
      scopes: (req.headers['x-scopes'] ?? '').split(' '),
    };
    const [result, replayed] = await setInterval(principal, req.headers['idempotency-key'], args);
    answer(res, 200, result, replayed ? { 'Idempotent-Replayed': 'true' } : {});
  } catch (error) {
    if (error instanceof Answer) answer(res, error.status, error.body);
    // The receipt store failing, a lost connection: an error the caller may retry.
    else answer(res, 500, { error: String(error.message ?? error) });
  }
});

server.listen(Number(process.env.PORT), '127.0.0.1');
