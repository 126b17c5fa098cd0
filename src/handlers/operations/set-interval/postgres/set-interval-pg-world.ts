/**
 * The article's schema on PostgreSQL, and everything around the call that the bundled PostgreSQL
 * handlers of `set_interval` share: setup, world events, the receipt-store failure trigger and
 * the snapshot (strings stored through `pg-text.ts`). As on SQLite (`../sqlite/set-interval-world.ts`), a mutant differs from the reference only in
 * its `call`.
 */
import type { Automation, Receipt, SetIntervalFixture, Snapshot } from '../../../../model/world.ts';
import { compareReceiptKeys } from '../../../../model/world.ts';
import { fromPgText, toPgText } from '../../../postgres/pg-text.ts';
import type { PgConnection, PostgresHandlerPlugin } from '../../../postgres/plugin.ts';
import { parseResult, STORE_FAILURE } from '../sqlite/set-interval-world.ts';

const SCHEMA = `
CREATE TABLE automations(
  id INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL,
  interval_minutes INTEGER NOT NULL, version INTEGER NOT NULL);
CREATE TABLE receipts(
  workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, tool TEXT NOT NULL,
  request_id TEXT NOT NULL, payload TEXT NOT NULL, response TEXT NOT NULL,
  PRIMARY KEY(workspace_id, user_id, tool, request_id));
CREATE FUNCTION fail_receipt() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN RAISE EXCEPTION '${STORE_FAILURE}' USING ERRCODE = 'check_violation'; END $$;
`;

/** Everything a PostgreSQL `set_interval` plugin needs besides `call`. */
export const postgresSetIntervalWorld: Omit<
  PostgresHandlerPlugin<SetIntervalFixture>,
  'name' | 'description' | 'call'
> = {
  engine: 'postgres',
  async setup(db, fixture) {
    await db.query(SCHEMA);
    for (const a of fixture.automations)
      await db.query('INSERT INTO automations VALUES ($1, $2, $3, $4)', [
        a.id,
        toPgText(a.workspace),
        a.intervalMinutes,
        a.version,
      ]);
  },
  async move(db, id, workspace) {
    await db.query('UPDATE automations SET workspace_id = $1 WHERE id = $2', [
      toPgText(workspace),
      id,
    ]);
  },
  async delete(db, id) {
    await db.query('DELETE FROM automations WHERE id = $1', [id]);
  },
  async recreate(db, row) {
    await db.query('INSERT INTO automations VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
      row.id,
      toPgText(row.workspace as string),
      row.intervalMinutes,
      row.version,
    ]);
  },
  async failReceipts(db) {
    await db.query(
      'CREATE OR REPLACE TRIGGER fail_receipt BEFORE INSERT ON receipts FOR EACH ROW EXECUTE FUNCTION fail_receipt()',
    );
  },
  async restoreReceipts(db) {
    await db.query('DROP TRIGGER IF EXISTS fail_receipt ON receipts');
  },
  async snapshot(db): Promise<Snapshot> {
    return {
      automations: await pgAutomations(db),
      receipts: (await receiptRows(db)).sort(compareReceiptKeys),
    };
  },
};

/** The automation rows, by id, in the model's shape. */
export async function pgAutomations(db: PgConnection): Promise<Automation[]> {
  const { rows } = await db.query<{
    id: number;
    workspace_id: string;
    interval_minutes: number;
    version: number;
  }>('SELECT id, workspace_id, interval_minutes, version FROM automations ORDER BY id');
  return rows.map((r) => ({
    id: r.id,
    workspace: fromPgText(r.workspace_id),
    intervalMinutes: r.interval_minutes,
    version: r.version,
  }));
}

async function receiptRows(db: PgConnection): Promise<Receipt[]> {
  const { rows } = await db.query<{
    workspace_id: string;
    user_id: string;
    tool: string;
    request_id: string;
    payload: string;
    response: string;
  }>('SELECT workspace_id, user_id, tool, request_id, payload, response FROM receipts');
  return rows.map((r) => ({
    workspace: fromPgText(r.workspace_id),
    user: fromPgText(r.user_id),
    tool: fromPgText(r.tool),
    requestId: fromPgText(r.request_id),
    payload: JSON.parse(r.payload),
    result: parseResult(r.response),
  }));
}
