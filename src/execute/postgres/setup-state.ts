/**
 * What a plugin's `setup` left in the template database, read once when the template is made
 * (`run-database.ts` resets every run back to it): the tables with a copy of their rows in the
 * harness's own schema, the sequences, the user triggers and the catalogue's fingerprint.
 */
import type pg from 'pg';
import { ReceiptcheckError } from '../../errors.ts';
import {
  countDdl,
  type DdlCount,
  EVENT_TRIGGERS,
  oidArray,
  SEED,
  TRIGGER_RELATIONS,
  TRIGGERS,
  triggerDefsOn,
} from './ddl-count.ts';
import { FINGERPRINT, FINGERPRINT_FUNCTION } from './schema-fingerprint.ts';

/** What `setup` left: tables with their insertable columns, sequences, triggers, fingerprint. */
export interface SetupState {
  /** Every table, its copy of `setup`'s rows in `SEED`, and whether that copy has any. */
  readonly tables: readonly { name: string; copy: string; columns: string; rows: boolean }[];
  readonly sequences: readonly { name: string; value: string; called: boolean }[];
  readonly triggers: ReadonlySet<string>;
  /** The relations that can carry triggers (`TRIGGER_RELATIONS`), as an `oid[]` literal. */
  readonly relations: string;
  /** The triggers' whole definitions (`triggerDefsOn` those relations). */
  readonly triggerDefs: string;
  /** The event triggers (`EVENT_TRIGGERS`), which no DDL count sees made. */
  readonly eventTriggers: string;
  readonly fingerprint: string;
  readonly superuser: boolean;
  /**
   * Whether putting the rows back would run code of the schema's: a superuser's reset quiets
   * triggers and rules (`session_replication_role = replica`), which still fires those set to fire
   * always or only on replicas (`ENABLE ALWAYS`, `ENABLE REPLICA`); any other role's reset quiets
   * nothing, so any trigger or enabled rule fires. Only a copy of the template resets such a
   * database.
   */
  readonly firesOnReset: boolean;
  /** The DDL count as `setup` left it; undefined where no event trigger counts (not a superuser). */
  readonly ddlSince: DdlCount | undefined;
}

/** Reads what `setup` left on `db`, and keeps a copy of every table's rows in `SEED`. */
export async function captureSetup(db: pg.Client): Promise<SetupState> {
  const tables = (
    await db.query<{ name: string; columns: string | null }>(`
      SELECT format('%I.%I', n.nspname, c.relname) AS name,
        (SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute
          WHERE attrelid = c.oid AND attnum > 0 AND NOT attisdropped AND attgenerated = '') AS columns
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND n.nspname NOT IN ('pg_catalog', 'information_schema', '${SEED}')
        AND n.nspname NOT LIKE 'pg\\_%'
      ORDER BY 1`)
  ).rows;
  const sequences = (
    await db.query<{ name: string; value: string | null; called: boolean }>(`
      SELECT format('%I.%I', schemaname, sequencename) AS name,
        coalesce(last_value, start_value)::text AS value, last_value IS NOT NULL AS called
      FROM pg_sequences WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`)
  ).rows;
  const triggers = new Set(
    (await db.query<{ target: string }>(TRIGGERS)).rows.map((r) => r.target),
  );
  const relations = (await db.query<{ rels: string }>(TRIGGER_RELATIONS)).rows[0]?.rels ?? '{}';
  const triggerDefs =
    (await db.query<{ defs: string }>(triggerDefsOn(oidArray(relations)))).rows[0]?.defs ?? '';
  const eventTriggers =
    (await db.query<{ events: string }>(`SELECT (${EVENT_TRIGGERS}) AS events`)).rows[0]?.events ??
    '';
  const superuser =
    (
      await db.query<{ s: boolean }>(
        'SELECT rolsuper AS s FROM pg_roles WHERE rolname = current_user',
      )
    ).rows[0]?.s === true;
  const firesOnReset =
    (await db.query<{ fires: boolean }>(firesOnResetSql(superuser))).rows[0]?.fires === true;
  await db.query(`CREATE SCHEMA ${SEED}`);
  await db.query(FINGERPRINT_FUNCTION);
  const fingerprint = (await db.query<{ fingerprint: string }>(FINGERPRINT)).rows[0]?.fingerprint;
  if (fingerprint === undefined)
    throw new ReceiptcheckError('E_POSTGRES', 'could not read the schema of the template database');
  const copies = tables.map((t, i) => ({
    name: t.name,
    copy: `${SEED}.t${i}`,
    columns: t.columns ?? '',
    rows: true,
  }));
  for (const t of copies) {
    await db.query(`CREATE TABLE ${t.copy} AS TABLE ${t.name}`);
    t.rows = (await db.query(`SELECT EXISTS (SELECT FROM ${t.copy}) AS r`)).rows[0]?.r === true;
  }
  // The reset's vacuums come between runs; autovacuum could come mid-run and take a lock.
  if (superuser)
    for (const t of copies)
      await db.query(`ALTER TABLE ${t.name} SET (autovacuum_enabled = false)`).catch(() => {}); // a partitioned table takes none: autovacuum may still visit its partitions
  const ddlSince = superuser ? await countDdl(db) : undefined;
  return {
    tables: copies.filter((t) => t.columns !== ''),
    sequences: sequences.map((q) => ({ name: q.name, value: q.value ?? '1', called: q.called })),
    triggers,
    relations,
    triggerDefs,
    eventTriggers,
    fingerprint,
    superuser,
    firesOnReset,
    ddlSince,
  };
}

/** The user schemas, as `FINGERPRINT` reads them. */
const USER_SCHEMA = `n.nspname NOT IN ('pg_catalog', 'information_schema', '${SEED}') AND n.nspname NOT LIKE 'pg\\_%'`;

/**
 * `SetupState.firesOnReset`: for a superuser, a user trigger or rule enabled always or on
 * replicas; for any other role, any user trigger, or a rule not disabled.
 */
function firesOnResetSql(superuser: boolean): string {
  const trigger = superuser ? "t.tgenabled IN ('A', 'R')" : 'true';
  const rule = superuser ? "r.ev_enabled IN ('A', 'R')" : "r.ev_enabled <> 'D'";
  return `
SELECT EXISTS (
  SELECT FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE NOT t.tgisinternal AND ${trigger} AND ${USER_SCHEMA}
) OR EXISTS (
  SELECT FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class
    JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE r.rulename <> '_RETURN' AND ${rule} AND ${USER_SCHEMA}
) AS fires`;
}
