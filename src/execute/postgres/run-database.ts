/**
 * The database a PostgreSQL runner's runs share, and how it is reset between runs. `open` makes a
 * template database once (the plugin's `setup`, plus a copy of every table's rows in a schema of
 * the harness's own), then one run database copied from it. `reset` puts the run database back
 * as `setup` left it, in place, measured on the embedded server on a loaded 2-core machine
 * (`tools/pg-reset-measure.ts`, `pg-reference`'s two tables):
 *
 * - delete and re-insert: every table emptied by `DELETE` and refilled from the copy, sequences
 *   set back, in one transaction: 0.3–0.5 ms for the statements;
 * - truncate and re-insert, the same with `TRUNCATE`: 4 ms, as the server makes new files for
 *   every table (and their indexes) and drops the old ones at commit;
 * - a database per run, `CREATE DATABASE … TEMPLATE`: 110–660 ms, as the server copies and
 *   checkpoints the whole database.
 *
 * So `DELETE` is the rule, with triggers and foreign keys quiet (`session_replication_role`, a
 * superuser's setting); a role that may not set it truncates, since `TRUNCATE` of every table at
 * once needs no order among their foreign keys. The dead rows `DELETE` leaves are vacuumed
 * between runs, every `VACUUM_EVERY` resets, and autovacuum is off on the run database's tables,
 * so no vacuum ever takes a lock while a run is under way (a scheduled lane would be seen waiting
 * on it). The template is the fallback for what a reset cannot undo: a run that changed the schema
 * beyond triggers added (`failReceipts`' trigger is dropped again), detected by a fingerprint of
 * the catalogue (`schema-fingerprint.ts`; read only after DDL other than trigger DDL ran, where an
 * event trigger counts DDL, `ddl-count.ts`), gets a new database from the template; and
 * a schema whose triggers or rules the re-insert would fire (`SetupState.firesOnReset`: any, where
 * this role is not a superuser; those that fire even in a superuser's quiet session) gets one
 * every run. `templateCopies()` counts those fallbacks, for the bench.
 */
import pg from 'pg';
import type { Fixture } from '../../model/world.ts';
import {
  DDL_COUNT,
  type DdlCount,
  ddlAfterReset,
  readDdlCount,
  schemaUnchanged,
  TRIGGER_RELATIONS,
  TRIGGERS,
} from './ddl-count.ts';
import { FINGERPRINT } from './schema-fingerprint.ts';
import type { PostgresServer } from './server.ts';
import { captureSetup, type SetupState } from './setup-state.ts';

/** Resets between two vacuums of the run database's tables. */
const VACUUM_EVERY = 50;

/** Run databases copied from a template because a reset could not undo a run, in this process. */
let fallbacks = 0;

/** How many times, in this process, a reset fell back to a new copy of the template. */
export function templateCopies(): number {
  return fallbacks;
}

/** The template and the run database of one runner. */
export class RunDatabase {
  /** The run database's name; it changes when `reset` had to copy the template again. */
  name: string;
  /** Resets in place since the last vacuum. */
  private resets = 0;
  /** The DDL count the last reset left (`ddl-count.ts`), with the schema `setup`'s. */
  private ddlSeen: DdlCount | undefined;
  /**
   * The relations that can carry triggers as the last reset left them (`TRIGGER_RELATIONS`):
   * `setup`'s, unless a run remade one the same (a table dropped and created again passes the
   * fingerprint with another oid).
   */
  private relations: string;
  private constructor(
    private readonly server: PostgresServer,
    private readonly template: string,
    name: string,
    private readonly state: SetupState,
  ) {
    this.name = name;
    this.ddlSeen = state.ddlSince;
    this.relations = state.relations;
  }

  /** Makes the template with `setup(fixture)` and the first run database from it. */
  static async open(
    server: PostgresServer,
    fixture: Fixture,
    setup: (db: pg.Client, fixture: Fixture) => Promise<void>,
    track: (database: string) => void,
  ): Promise<RunDatabase> {
    const template = await server.createDatabase(undefined, track);
    const db = new pg.Client(server.connectionFor(template));
    // A server stopped by Ctrl-C mid-setup errors here; the query waiting rejects on its own, and
    // an unheard event would end the process with exit 1 instead of the interrupt's code.
    db.on('error', () => {});
    await db.connect();
    let state: SetupState;
    try {
      await setup(db, fixture);
      state = await captureSetup(db);
    } finally {
      await db.end();
    }
    const name = await server.createDatabase(template, track);
    return new RunDatabase(server, template, name, state);
  }

  /** The databases this runner made, for dropping. */
  get databases(): readonly string[] {
    return [this.name, this.template];
  }

  /**
   * Puts the run database back as `setup` left it on `harness` (no other connection may hold a
   * transaction), after `session` (the harness's session cleaning, in the same round trip). False
   * when it made a new run database from the template instead: the old one's connections are
   * gone, `name` is the new.
   */
  async reset(
    harness: pg.Client,
    track: (database: string) => void,
    session: string,
  ): Promise<boolean> {
    const s = this.state;
    const seen = this.ddlSeen;
    // Rows put back in place would run the schema's own code (`firesOnReset`): a copy only.
    if (s.firesOnReset) return this.copyTemplate(harness, track);
    if (seen !== undefined) {
      // One round trip when no DDL but trigger DDL ran since the last reset (`ddl-count.ts`);
      // rows put back on a changed schema (or a failure) send it the long way below.
      const read = await harness
        .query(
          `${session};\n${restoreRows(s)};\n${ddlAfterReset(s.triggers, this.relations, seen)}`,
        )
        .then((r) => readDdlCount((r as unknown as pg.QueryResult[]).at(-1)?.rows))
        .catch(() => undefined);
      if (read && schemaUnchanged(seen, read, { defs: s.triggerDefs, events: s.eventTriggers })) {
        this.ddlSeen = { all: read.all, triggers: read.triggers };
        return this.afterRestore(harness);
      }
      if (harness.getTransactionStatus() !== 'I') await harness.query('ROLLBACK');
    }
    if (await this.restoredOnSchema(harness, session)) return this.afterRestore(harness);
    return this.copyTemplate(harness, track);
  }

  /** The fallback: a new run database copied from the template, the old one dropped. */
  private async copyTemplate(
    harness: pg.Client,
    track: (database: string) => void,
  ): Promise<false> {
    const s = this.state;
    if (harness.getTransactionStatus() !== 'I') await harness.query('ROLLBACK');
    fallbacks++;
    const old = this.name;
    this.name = await this.server.createDatabase(this.template, track);
    await this.server.dropDatabase(old);
    this.resets = 0;
    this.ddlSeen = s.ddlSince;
    this.relations = s.relations;
    return false;
  }

  /** Every `VACUUM_EVERY` resets in place, the dead rows `DELETE` left are vacuumed. */
  private async afterRestore(harness: pg.Client): Promise<true> {
    const s = this.state;
    if (s.superuser && ++this.resets >= VACUUM_EVERY && s.tables.length > 0) {
      this.resets = 0;
      await harness.query(`VACUUM ${s.tables.map((t) => t.name).join(', ')}`);
    }
    return true;
  }

  /**
   * The long way, in one round trip: the session cleaned (again: a failed round trip's rollback
   * may have undone it), the triggers a run added dropped, the rows put back, then the whole
   * catalogue read (and the DDL count, which the drops moved). True when the schema is `setup`'s:
   * false (a run changed it, or the rows could not go back) when only the template can undo it.
   */
  private async restoredOnSchema(harness: pg.Client, session: string): Promise<boolean> {
    const s = this.state;
    const counted = s.ddlSince !== undefined;
    const kept = [...s.triggers].map((t) => `'${t.replace(/'/g, "''")}'`).join(', ');
    const read = await harness
      .query(
        [
          session,
          `DO $receiptcheck$ DECLARE added text; BEGIN FOR added IN SELECT target FROM (${TRIGGERS}) x
             WHERE target <> ALL (ARRAY[${kept}]::text[]) LOOP EXECUTE 'DROP TRIGGER ' || added;
           END LOOP; END $receiptcheck$`,
          restoreRows(s),
          FINGERPRINT,
          TRIGGER_RELATIONS,
          ...(counted ? [DDL_COUNT] : []),
        ].join(';\n'),
      )
      .then((r) => r as unknown as pg.QueryResult<Record<string, unknown>>[])
      .catch(() => undefined);
    const at = (i: number) => read?.at(counted ? i - 1 : i)?.rows[0];
    if (!read || at(-2)?.fingerprint !== s.fingerprint) return false;
    this.relations = String(at(-1)?.rels ?? s.relations);
    // Dropping triggers is DDL too: the count to compare with next time is the one after it.
    if (counted) this.ddlSeen = readDdlCount(read.at(-1)?.rows);
    return true;
  }
}

/** The statements that put every table's rows and every sequence back, as one transaction. */
function restoreRows(s: SetupState): string {
  const names = s.tables.map((t) => t.name);
  // A superuser deletes with triggers and foreign keys quiet; others truncate, in no order.
  const empty = s.superuser
    ? ['SET LOCAL session_replication_role = replica', ...names.map((n) => `DELETE FROM ${n}`)]
    : names.length > 0
      ? [`TRUNCATE ${names.join(', ')}`]
      : [];
  return [
    'BEGIN',
    ...empty,
    // A copy is the harness's and never changes: an empty one has nothing to put back.
    ...s.tables
      .filter((t) => t.rows)
      .map(
        (t) =>
          `INSERT INTO ${t.name}(${t.columns}) OVERRIDING SYSTEM VALUE SELECT ${t.columns} FROM ${t.copy}`,
      ),
    ...s.sequences.map((q) => `SELECT setval('${q.name}', ${q.value}, ${q.called})`),
    'COMMIT',
  ].join(';\n');
}
