/**
 * The user schemas' catalogue as one text (`FINGERPRINT`): equal texts, a database a reset in
 * place can give back as `setup` left it (`run-database.ts`), for the reset puts back rows and
 * sequence values only. So it holds everything else a run can change that a plugin's code can
 * meet: schemas, relations and their columns (collations included), defaults, indexes, constraints, triggers, rules (a view's
 * definition is its rule), row security and policies, grants, functions, types and enum labels,
 * sequences' settings, extensions, event triggers, and a materialized view's rows, which only
 * `REFRESH` changes and no reset puts back. It is read by a function the template holds
 * (`FINGERPRINT_FUNCTION`).
 */
import { EVENT_TRIGGERS, SEED } from './ddl-count.ts';

/** The user schemas' oids. */
const SCHEMAS = `SELECT oid FROM pg_namespace
  WHERE nspname NOT IN ('pg_catalog', 'information_schema', '${SEED}') AND nspname NOT LIKE 'pg\\_%'`;

/** The user schemas' relations' oids. */
const RELATIONS = 'SELECT oid FROM pg_class WHERE relnamespace IN (SELECT oid FROM s)';

/** Each part of the fingerprint: one text per kind of catalogue entry, in a fixed order. */
const PARTS = [
  `SELECT string_agg(format('%s:%s:%s', nspname, nspowner, nspacl), ',' ORDER BY nspname)
     FROM pg_namespace WHERE oid IN (SELECT oid FROM s)`,
  `SELECT string_agg(format('%s.%s:%s:%s:%s:%s:%s', relnamespace, relname, relkind, relpersistence,
      relrowsecurity, relforcerowsecurity, relacl), ',' ORDER BY relnamespace, relname)
     FROM pg_class WHERE relnamespace IN (SELECT oid FROM s)`,
  `SELECT string_agg(format('%s.%s:%s:%s:%s:%s:%s:%s:%s', attrelid::regclass, attname, atttypid,
      atttypmod, attcollation, attnotnull, attisdropped, attidentity, attgenerated), ','
      ORDER BY attrelid::regclass::text, attnum)
     FROM pg_attribute WHERE attrelid IN (${RELATIONS}) AND attnum > 0`,
  `SELECT string_agg(format('%s.%s:%s', adrelid::regclass, adnum, pg_get_expr(adbin, adrelid)), ','
      ORDER BY adrelid::regclass::text, adnum)
     FROM pg_attrdef WHERE adrelid IN (${RELATIONS})`,
  `SELECT string_agg(pg_get_indexdef(indexrelid), ',' ORDER BY indexrelid::regclass::text)
     FROM pg_index WHERE indrelid IN (${RELATIONS})`,
  `SELECT string_agg(format('%s:%s', pg_get_triggerdef(oid), tgenabled), ',' ORDER BY tgrelid::regclass::text, tgname)
     FROM pg_trigger WHERE tgrelid IN (${RELATIONS}) AND NOT tgisinternal`,
  `SELECT string_agg(format('%s:%s', pg_get_ruledef(oid), ev_enabled), ',' ORDER BY ev_class::regclass::text, rulename)
     FROM pg_rewrite WHERE ev_class IN (${RELATIONS})`,
  `SELECT string_agg(format('%s.%s:%s:%s:%s:%s:%s', polrelid::regclass, polname, polcmd, polpermissive,
      polroles, pg_get_expr(polqual, polrelid), pg_get_expr(polwithcheck, polrelid)), ','
      ORDER BY polrelid::regclass::text, polname)
     FROM pg_policy WHERE polrelid IN (${RELATIONS})`,
  `SELECT string_agg(format('%s.%s:%s:%s', pronamespace, proname, md5(prosrc), proacl), ','
      ORDER BY pronamespace, proname, md5(prosrc))
     FROM pg_proc WHERE pronamespace IN (SELECT oid FROM s)`,
  `SELECT string_agg(format('%s:%s', conname, pg_get_constraintdef(oid)), ',' ORDER BY conrelid::regclass::text, conname)
     FROM pg_constraint WHERE connamespace IN (SELECT oid FROM s)`,
  `SELECT string_agg(format('%s.%s:%s', typnamespace, typname, typtype), ',' ORDER BY typnamespace, typname)
     FROM pg_type WHERE typnamespace IN (SELECT oid FROM s)`,
  `SELECT string_agg(format('%s:%s:%s', t.typname, e.enumsortorder, e.enumlabel), ','
      ORDER BY t.typname, e.enumsortorder)
     FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid WHERE t.typnamespace IN (SELECT oid FROM s)`,
  `SELECT string_agg(format('%s:%s:%s:%s:%s:%s:%s:%s', seqrelid::regclass, seqtypid, seqstart, seqincrement,
      seqmax, seqmin, seqcache, seqcycle), ',' ORDER BY seqrelid::regclass::text)
     FROM pg_sequence WHERE seqrelid IN (${RELATIONS})`,
  `SELECT string_agg(format('%s:%s', extname, extversion), ',' ORDER BY extname) FROM pg_extension`,
  EVENT_TRIGGERS,
  // A materialized view's rows, in a fixed order, as `setup` left them or a run refreshed them.
  `SELECT string_agg(format('%s:%s', oid::regclass, CASE WHEN relispopulated THEN md5(query_to_xml(
      format('SELECT md5(coalesce(string_agg(t::text, %L ORDER BY t::text), %L)) AS h FROM %s t',
        ',', '', oid::regclass), false, true, '')::text) ELSE 'not populated' END), ','
      ORDER BY oid::regclass::text)
     FROM pg_class WHERE relkind = 'm' AND relnamespace IN (SELECT oid FROM s)`,
];

/**
 * Makes the function `FINGERPRINT` calls, in the harness's schema (which the fingerprint leaves
 * out). A function, not the query itself: the server keeps its plan for the session, where the
 * query was planned again on every read (3.8 against 1.7 ms a read, measured on the embedded
 * server with `pg-reference`'s schema).
 */
export const FINGERPRINT_FUNCTION = `
CREATE FUNCTION ${SEED}.fingerprint() RETURNS text LANGUAGE plpgsql AS $fingerprint$ BEGIN
  RETURN (WITH s AS (${SCHEMAS})
    SELECT md5(concat_ws('|', ${PARTS.map((p) => `coalesce((${p}), '')`).join(',\n')})));
END $fingerprint$`;

/** The user schemas' catalogue, as one text (`fingerprint`): equal texts, equal schemas. */
export const FINGERPRINT = `SELECT ${SEED}.fingerprint() AS fingerprint`;
