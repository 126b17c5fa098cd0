/**
 * How a reset knows, without reading the whole catalogue, that a run left the schema as `setup`
 * made it (`run-database.ts`). An event trigger on the template (a superuser's, so every copy
 * has it) counts every DDL statement on a sequence of the harness's schema, and the trigger DDL
 * (`CREATE TRIGGER`, `CREATE OR REPLACE TRIGGER`, `DROP TRIGGER`) on a second one. Sequences,
 * not rows, so that two lanes' DDL never wait on each other for them (`nextval` takes no lock a
 * transaction holds); `ENABLE ALWAYS`, so a session in replica mode counts too; and counted even
 * when the transaction rolls back, so a count errs only towards a longer reset.
 *
 * So a reset reads two numbers. The same count as the last reset left: no DDL ran. More, but all
 * of it trigger DDL: the schema can differ from that reset's only in its user triggers (such a
 * statement changes nothing else, nor makes a relation), so the triggers `setup` did not make are
 * dropped in the reset's own round trip (`ddlAfterReset`) and the definitions of those left are
 * compared with `setup`'s (`triggerDefsOn`): equal, the schema is `setup`'s again. Both read
 * `pg_trigger` alone, by the relations that reset knew (`TRIGGER_RELATIONS`): the server plans
 * them again after every trigger DDL, and a join over the catalogue took 0.4 ms more to plan. That
 * is the receipt-store failure event's case (a trigger made and dropped), a third of the runs
 * of the bundled references; it took the catalogue's fingerprint before, 4-5 ms of server time a
 * reset. Any other DDL still takes the fingerprint, and the template when that differs.
 */
import type pg from 'pg';

/** The schema the harness keeps the rows `setup` inserted in (and its DDL counts); never a plugin's. */
export const SEED = 'receiptcheck_seed';

/** The user schemas' relations, as a SQL condition on `nspname`. */
const USER_SCHEMA = `nspname NOT IN ('pg_catalog', 'information_schema', '${SEED}') AND nspname NOT LIKE 'pg\\_%'`;

/** The user schemas' relations that can carry triggers (tables, views, foreign tables), their oids. */
const USER_RELATIONS = `
SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'p', 'v', 'f') AND ${USER_SCHEMA}`;

/** The same relations, as the text of an `oid[]` (`rels`); `oidArray` makes it SQL again. */
export const TRIGGER_RELATIONS = `
SELECT coalesce(array_agg(oid ORDER BY oid), '{}')::text AS rels FROM (${USER_RELATIONS}) r`;

/** The `oid[]` that `TRIGGER_RELATIONS` read as text, as an SQL expression. */
export const oidArray = (rels: string) => `'${rels}'::oid[]`;

/** The user triggers on `rels` (an `oid[]` expression), as `DROP TRIGGER` targets. */
const triggersOn = (rels: string) => `
SELECT format('%I ON %s', tgname, tgrelid::regclass) AS target FROM pg_trigger
  WHERE tgrelid = ANY (${rels}) AND NOT tgisinternal`;

/** Every user trigger, as `DROP TRIGGER` targets: on the relations as the catalogue has them now. */
export const TRIGGERS = triggersOn(`ARRAY(${USER_RELATIONS})`);

/**
 * The whole definitions (events, timing, condition, function, arguments, enabled) of the user
 * triggers on `rels` (an `oid[]` expression), as one text.
 */
export const triggerDefsOn = (rels: string) => `
SELECT md5(coalesce(string_agg(pg_get_triggerdef(oid) || ' ' || tgenabled::text, E'\\n'
    ORDER BY tgrelid, tgname), '')) AS defs FROM pg_trigger
  WHERE tgrelid = ANY (${rels}) AND NOT tgisinternal`;

/** The name of the event trigger that counts DDL (`countDdl`). */
const COUNTER = 'receiptcheck_count_ddl';

/**
 * The event triggers but the harness's own, as one text. No event trigger fires for event
 * trigger DDL, so a run that made one is not counted: a reset reads them every time.
 */
export const EVENT_TRIGGERS = `SELECT coalesce(string_agg(format('%s:%s:%s:%s:%s', evtname, evtevent,
    evtfoid::regproc, evtenabled, evttags), ',' ORDER BY evtname), '')
  FROM pg_event_trigger WHERE evtname <> '${COUNTER}'`;

/** The DDL statements counted so far: all of them, and the trigger DDL among them. */
export interface DdlCount {
  readonly all: number;
  readonly triggers: number;
}

/** A sequence's count of `nextval` calls (from 1 by 1), as SQL. */
const calls = (sequence: string) =>
  `(SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM ${SEED}.${sequence})`;

/**
 * Makes every DDL statement on `db`'s database count (the event trigger and its two sequences),
 * and the function a reset drops added triggers with; returns the count now.
 */
export async function countDdl(db: pg.Client): Promise<DdlCount> {
  await db.query(`
    CREATE SEQUENCE ${SEED}.ddl;
    CREATE SEQUENCE ${SEED}.ddl_triggers;
    CREATE FUNCTION ${SEED}.count_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN
      PERFORM nextval('${SEED}.ddl');
      IF tg_tag IN ('CREATE TRIGGER', 'DROP TRIGGER') THEN PERFORM nextval('${SEED}.ddl_triggers'); END IF;
    END $$;
    CREATE EVENT TRIGGER ${COUNTER} ON ddl_command_end EXECUTE FUNCTION ${SEED}.count_ddl();
    ALTER EVENT TRIGGER ${COUNTER} ENABLE ALWAYS;
    CREATE FUNCTION ${SEED}.ddl_after(kept text[], rels oid[], seen_all bigint,
        seen_triggers bigint, OUT n_all bigint, OUT n_triggers bigint, OUT defs text,
        OUT events text) LANGUAGE plpgsql AS $$
      DECLARE added text; BEGIN
      events := (${EVENT_TRIGGERS});
      n_all := ${calls('ddl')}; n_triggers := ${calls('ddl_triggers')};
      IF n_all = seen_all OR n_all - seen_all <> n_triggers - seen_triggers THEN RETURN; END IF;
      FOR added IN SELECT target FROM (${triggersOn('rels')}) x WHERE target <> ALL (kept) LOOP
        EXECUTE 'DROP TRIGGER ' || added;
      END LOOP;
      n_all := ${calls('ddl')}; n_triggers := ${calls('ddl_triggers')};
      defs := (${triggerDefsOn('rels')});
    END $$`);
  const counted = readDdlCount((await db.query(DDL_COUNT)).rows);
  if (!counted) throw new Error('the DDL count could not be read');
  return counted;
}

/**
 * The statement that reads the counts after a reset put the rows back: when all the DDL since
 * `seen` was trigger DDL, it first drops the triggers `setup` did not make (`kept`, as `TRIGGERS`
 * names them) on `relations` (what `TRIGGER_RELATIONS` read when the schema was last known to be
 * `setup`'s: trigger DDL makes no relation) and reads the definitions of those left; one row of
 * `n_all`, `n_triggers`, `defs`. After the rows, not before: they go back in replica mode, where
 * no trigger `CREATE TRIGGER` makes fires, so none of them could have touched them.
 */
export function ddlAfterReset(
  kept: ReadonlySet<string>,
  relations: string,
  seen: DdlCount,
): string {
  const names = [...kept].map((t) => `'${t.replace(/'/g, "''")}'`).join(', ');
  return `SELECT * FROM ${SEED}.ddl_after(ARRAY[${names}]::text[], ${oidArray(relations)}, ${seen.all}, ${seen.triggers})`;
}

/** Reads the counts, as one row of `n_all` and `n_triggers`. */
export const DDL_COUNT = `SELECT ${calls('ddl')} AS n_all, ${calls('ddl_triggers')} AS n_triggers`;

/**
 * What `ddlAfterReset` or `DDL_COUNT` read: the count, and the trigger definitions and event
 * triggers (`EVENT_TRIGGERS`) if it read them.
 */
export interface DdlRead extends DdlCount {
  readonly defs: string | null;
  readonly events: string | null;
}

/** The row `ddlAfterReset` or `DDL_COUNT` read, or undefined when `rows` is not one. */
export function readDdlCount(
  rows: readonly Record<string, unknown>[] | undefined,
): DdlRead | undefined {
  const row = rows?.[0];
  if (!row || !('n_all' in row)) return undefined;
  return {
    all: Number(row.n_all),
    triggers: Number(row.n_triggers),
    defs: (row.defs as string) ?? null,
    events: (row.events as string) ?? null,
  };
}

/**
 * Whether the schema is `setup`'s, from the count the last reset left (`seen`, when it was) and
 * the one read now after dropping the added triggers: the event triggers `setup`'s (`setup.events`,
 * which no count sees), and no DDL since, or only trigger DDL with the user triggers' definitions
 * now `setup`'s (`setup.defs`, `triggerDefsOn` the template's relations).
 */
export function schemaUnchanged(
  seen: DdlCount,
  now: DdlRead,
  setup: { readonly defs: string; readonly events: string },
): boolean {
  if (now.events !== setup.events) return false;
  if (now.all === seen.all) return true;
  return now.all - seen.all === now.triggers - seen.triggers && now.defs === setup.defs;
}
