/**
 * A service description: the JSON file `--service FILE` names, which tells the harness how to
 * start a service, talk to it, and own its database. Parsed and checked here, purely: every
 * mistake is one `E_SERVICE_DESCRIPTION` line naming the field and what it must be, before
 * anything starts. The protocol's own options are checked by its driver (`load-service.ts`).
 */
import { ReceiptcheckError } from '../../errors.ts';
import type { PolicyDeclaration } from '../../model/policy.ts';
import { ANSWER_KINDS, type AnswerRule, isPath, isStatusPattern } from './answer-mapping.ts';

/** The engines a service's database may be on. */
export const SERVICE_ENGINES = ['sqlite', 'postgres'] as const;

/** The engine of a service's database. */
export type ServiceEngine = (typeof SERVICE_ENGINES)[number];

/** SQL the harness runs on the service's database: one statement, or several in order. */
export type SqlText = string | readonly string[];

/** A described service, checked; paths and defaults are resolved by `load-service.ts`. */
export interface ServiceDescription {
  /** Shown in reports, like a plugin's name. */
  readonly name: string;
  readonly description?: string;
  /** A built-in operation's name. Default `set-interval`. */
  readonly operation?: string;
  /** The program that starts the service, and its arguments. */
  readonly command: string;
  readonly args: readonly string[];
  /** Where it runs, relative to the description's folder. Default that folder. */
  readonly cwd?: string;
  /** Added to the harness's environment. */
  readonly env: Readonly<Record<string, string>>;
  /** Most time the service may take to be ready, in ms. Default 10000. */
  readonly readyTimeoutMs?: number;
  /** `name` picks the driver (`protocols.ts`); the rest are the driver's options. */
  readonly protocol: Readonly<Record<string, unknown>> & { readonly name: string };
  readonly database: {
    readonly engine: ServiceEngine;
    /**
     * The environment variable the database is passed in: the SQLite file's path (default
     * `DATABASE_PATH`), or the PostgreSQL database's `postgres://` URL (default `DATABASE_URL`).
     */
    readonly env?: string;
  };
  readonly setup: {
    /** The schema, run once into the template. */
    readonly schema: SqlText;
    /** By fixture table: the statement run for each of its rows, its fields as `:name` parameters. */
    readonly rows: Readonly<Record<string, SqlText>>;
  };
  /** World events as SQL, `:id`, `:workspace` (and a re-created row's fields) as parameters. */
  readonly world: {
    readonly move: SqlText;
    readonly delete: SqlText;
    readonly recreate?: SqlText;
    /** Default: a trigger that makes every insert into `receipts` fail. */
    readonly failReceipts?: SqlText;
    /** Default: drops that trigger. */
    readonly restoreReceipts?: SqlText;
  };
  /** By snapshot table (`receipts` and the operation's tables): a SELECT giving the model's rows. */
  readonly snapshot: Readonly<Record<string, string>>;
  /** Answer rules tried before the defaults (`answer-mapping.ts`). */
  readonly answers: readonly AnswerRule[];
  /** Where the service departs from the contract, as for a plugin. */
  readonly policy?: PolicyDeclaration;
}

const TOP_KEYS = [
  'name',
  'description',
  'operation',
  'command',
  'args',
  'cwd',
  'env',
  'readyTimeoutMs',
  'protocol',
  'database',
  'setup',
  'world',
  'snapshot',
  'answers',
  'policy',
];
const RULE_KEYS = ['status', 'headers', 'body', 'outcome', 'result', 'reason', 'field', 'message'];
const WORLD_KEYS = ['move', 'delete', 'recreate', 'failReceipts', 'restoreReceipts'];

/** Parses and checks the text of the description at `source`; throws `E_SERVICE_DESCRIPTION`. */
export function parseServiceDescription(text: string, source: string): ServiceDescription {
  const bad = (what: string): never => {
    throw new ReceiptcheckError('E_SERVICE_DESCRIPTION', `service description ${source}: ${what}`);
  };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (thrown) {
    return bad(`not JSON (${(thrown as Error).message})`);
  }
  const d = objectAt(raw, 'the file', bad);
  unknownKeys(d, TOP_KEYS, '', bad);
  text1(d.name, 'name', bad);
  for (const key of ['description', 'operation', 'cwd'] as const)
    if (d[key] !== undefined) text1(d[key], key, bad);
  text1(d.command, 'command', bad);
  const args = d.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string'))
    bad('"args" must be a list of strings');
  const env = objectAt(d.env ?? {}, '"env"', bad);
  for (const [k, v] of Object.entries(env))
    if (typeof v !== 'string') bad(`"env.${k}" must be a string`);
  if (
    d.readyTimeoutMs !== undefined &&
    !(Number.isInteger(d.readyTimeoutMs) && (d.readyTimeoutMs as number) > 0)
  )
    bad('"readyTimeoutMs" must be a positive integer');
  const protocol = objectAt(d.protocol, '"protocol"', bad);
  text1(protocol.name, 'protocol.name', bad);
  const database = objectAt(d.database, '"database"', bad);
  unknownKeys(database, ['engine', 'env'], 'database.', bad);
  if (!SERVICE_ENGINES.includes(database.engine as ServiceEngine))
    bad(
      `"database.engine" must be ${SERVICE_ENGINES.map((e) => `"${e}"`).join(' or ')}, not ${JSON.stringify(database.engine)}`,
    );
  if (database.env !== undefined) text1(database.env, 'database.env', bad);
  const setup = objectAt(d.setup, '"setup"', bad);
  unknownKeys(setup, ['schema', 'rows'], 'setup.', bad);
  sql(setup.schema, 'setup.schema', bad);
  for (const [table, s] of Object.entries(objectAt(setup.rows, '"setup.rows"', bad)))
    sql(s, `setup.rows.${table}`, bad);
  const world = objectAt(d.world, '"world"', bad);
  unknownKeys(world, WORLD_KEYS, 'world.', bad);
  sql(world.move, 'world.move', bad);
  sql(world.delete, 'world.delete', bad);
  for (const key of ['recreate', 'failReceipts', 'restoreReceipts'])
    if (world[key] !== undefined) sql(world[key], `world.${key}`, bad);
  const snapshot = objectAt(d.snapshot, '"snapshot"', bad);
  if (snapshot.receipts === undefined)
    bad('"snapshot.receipts" is missing: a SELECT of the receipts');
  for (const [table, s] of Object.entries(snapshot)) text1(s, `snapshot.${table}`, bad);
  const answers = d.answers ?? [];
  if (!Array.isArray(answers)) bad('"answers" must be a list of rules');
  for (const [i, rule] of (answers as unknown[]).entries()) checkRule(rule, `answers[${i}]`, bad);
  if (d.policy !== undefined) objectAt(d.policy, '"policy"', bad);
  return { ...d, args, env, answers } as unknown as ServiceDescription;
}

function checkRule(raw: unknown, where: string, bad: (what: string) => never): void {
  const rule = objectAt(raw, `"${where}"`, bad);
  unknownKeys(rule, RULE_KEYS, `${where}.`, bad);
  if (!ANSWER_KINDS.includes(rule.outcome as never))
    bad(`"${where}.outcome" must be one of ${ANSWER_KINDS.join(', ')}`);
  if (rule.status !== undefined) {
    const patterns = Array.isArray(rule.status) ? rule.status : [rule.status];
    if (patterns.length === 0 || !patterns.every(isStatusPattern))
      bad(`"${where}.status" must be a status (200), a class ("4xx") or a list of them`);
  }
  if (rule.headers !== undefined)
    for (const [k, v] of Object.entries(objectAt(rule.headers, `"${where}.headers"`, bad)))
      if (typeof v !== 'string') bad(`"${where}.headers.${k}" must be a string`);
  if (rule.body !== undefined)
    for (const [k, v] of Object.entries(objectAt(rule.body, `"${where}.body"`, bad)))
      if (v !== null && typeof v === 'object')
        bad(`"${where}.body.${k}" must be a string, number, boolean or null`);
  for (const key of ['result', 'reason', 'field', 'message'])
    if (rule[key] !== undefined) text1(rule[key], `${where}.${key}`, bad);
  if (typeof rule.result === 'string' && !isPath(rule.result))
    bad(`"${where}.result" must be a body path: "$" or "$.a.b"`);
  if (rule.outcome === 'refused' && rule.reason === undefined)
    bad(`"${where}" maps to refused: give its "reason" ("conflict", or "$.path" to read it)`);
}

function objectAt(
  value: unknown,
  what: string,
  bad: (what: string) => never,
): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return bad(`${what} must be an object${value === undefined ? ', and is missing' : ''}`);
  return value as Record<string, unknown>;
}

function text1(value: unknown, key: string, bad: (what: string) => never): void {
  if (typeof value !== 'string' || value.trim() === '')
    bad(`"${key}" must be a non-empty string${value === undefined ? ', and is missing' : ''}`);
}

function sql(value: unknown, key: string, bad: (what: string) => never): void {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || !list.every((s) => typeof s === 'string' && s.trim() !== ''))
    bad(
      `"${key}" must be SQL: a statement, or a list of them${value === undefined ? ', and is missing' : ''}`,
    );
}

function unknownKeys(
  o: Record<string, unknown>,
  known: readonly string[],
  prefix: string,
  bad: (what: string) => never,
): void {
  for (const key of Object.keys(o))
    if (!known.includes(key))
      bad(`"${prefix}${key}" is not a field here (known: ${known.join(', ')})`);
}
