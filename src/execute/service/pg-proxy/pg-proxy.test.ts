/**
 * The PostgreSQL proxy against the test run's real server, with node-postgres as the client: every
 * statement reaches the owner's hooks in order with its SQL, values and the backend's pid; a held
 * statement really is held (the server has not seen it while another connection works); and
 * closing leaves no connection open. No check depends on timing: a held statement is observed
 * through the server's own `pg_stat_activity`, and waits are on the hooks' promises.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type PgProxy, startPgProxy } from './pg-proxy.ts';
import type {
  ProxyConnectionInfo,
  ProxyHooks,
  ProxyStatement,
  ProxyStatementResult,
} from './proxy-hooks.ts';

const server = new URL(inject('postgresUrl'));

/** What the hooks heard, one line per event, in order. */
type Heard =
  | {
      readonly at: 'before';
      readonly info: ProxyConnectionInfo;
      readonly statement: ProxyStatement;
    }
  | {
      readonly at: 'after';
      readonly info: ProxyConnectionInfo;
      readonly statement: ProxyStatement;
      readonly result: ProxyStatementResult;
    }
  | { readonly at: 'closed'; readonly info: ProxyConnectionInfo; readonly error?: Error };

let proxy: PgProxy | undefined;
const clients: pg.Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.end().catch(() => {})));
  await proxy?.close();
  proxy = undefined;
});

/** Starts a proxy to the test server whose hooks record into `heard`; `gate` may hold a statement. */
async function start(
  heard: Heard[],
  gate: ProxyHooks['beforeStatement'] = async () => {},
): Promise<PgProxy> {
  proxy = await startPgProxy({
    upstreamHost: server.hostname,
    upstreamPort: Number(server.port),
    hooks: {
      beforeStatement: (info, statement) => {
        heard.push({ at: 'before', info, statement });
        return gate(info, statement);
      },
      afterStatement: (info, statement, result) =>
        heard.push({ at: 'after', info, statement, result }),
      connectionClosed: (info, error) =>
        heard.push({ at: 'closed', info, ...(error ? { error } : {}) }),
    },
  });
  return proxy;
}

/** A node-postgres client connected through `via`. */
async function through(via: PgProxy, extra: pg.ClientConfig = {}): Promise<pg.Client> {
  const client = new pg.Client({
    host: via.host,
    port: via.port,
    user: decodeURIComponent(server.username),
    password: decodeURIComponent(server.password),
    database: server.pathname.slice(1),
    ...extra,
  });
  clients.push(client);
  await client.connect();
  return client;
}

/** The hooks' events as `before|after text [values] -> status commands error`, for one readable assertion. */
function lines(heard: readonly Heard[]): string[] {
  return heard.map((h) => {
    if (h.at === 'closed') return `closed ${h.info.connection}`;
    const values = h.statement.values.length > 0 ? ` ${JSON.stringify(h.statement.values)}` : '';
    const head = `${h.at} ${h.statement.kind} ${h.statement.text}${values}`;
    if (h.at === 'before') return head;
    const error = h.result.error ? ` ${h.result.error.code}` : '';
    return `${head} -> ${h.result.status} ${h.result.commands.join(',')}${error}`;
  });
}

describe('the PostgreSQL proxy', () => {
  it('hands each statement to the hooks in order, with its SQL, values, pid and ending', async () => {
    const heard: Heard[] = [];
    const client = await through(await start(heard));
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]
      ?.pid;
    await client.query('CREATE TEMP TABLE notes (id int PRIMARY KEY, note text)');
    await client.query('INSERT INTO notes VALUES ($1, $2)', [1, 'one']);
    await client.query('BEGIN');
    await client.query('UPDATE notes SET note = $1 WHERE id = $2', ['uno', 1]);
    await client.query('COMMIT');
    const byId = { name: 'by-id', text: 'SELECT note FROM notes WHERE id = $1' };
    expect((await client.query({ ...byId, values: [1] })).rows).toEqual([{ note: 'uno' }]);
    // Prepared already: node-postgres sends only Bind/Execute/Sync, and the proxy remembers the SQL.
    expect((await client.query({ ...byId, values: [2] })).rows).toEqual([]);
    await client.query('BEGIN');
    await expect(client.query('SELECT 1 / $1::int', [0])).rejects.toThrow('division by zero');
    await client.query('ROLLBACK');

    expect(typeof pid).toBe('number');
    for (const h of heard) if (h.at !== 'closed') expect(h.info).toEqual({ connection: 1, pid });
    expect(lines(heard)).toEqual([
      'before simple SELECT pg_backend_pid() AS pid',
      'after simple SELECT pg_backend_pid() AS pid -> I SELECT 1',
      'before simple CREATE TEMP TABLE notes (id int PRIMARY KEY, note text)',
      'after simple CREATE TEMP TABLE notes (id int PRIMARY KEY, note text) -> I CREATE TABLE',
      'before extended INSERT INTO notes VALUES ($1, $2) ["1","one"]',
      'after extended INSERT INTO notes VALUES ($1, $2) ["1","one"] -> I INSERT 0 1',
      'before simple BEGIN',
      'after simple BEGIN -> T BEGIN',
      'before extended UPDATE notes SET note = $1 WHERE id = $2 ["uno","1"]',
      'after extended UPDATE notes SET note = $1 WHERE id = $2 ["uno","1"] -> T UPDATE 1',
      'before simple COMMIT',
      'after simple COMMIT -> I COMMIT',
      'before extended SELECT note FROM notes WHERE id = $1 ["1"]',
      'after extended SELECT note FROM notes WHERE id = $1 ["1"] -> I SELECT 1',
      'before extended SELECT note FROM notes WHERE id = $1 ["2"]',
      'after extended SELECT note FROM notes WHERE id = $1 ["2"] -> I SELECT 0',
      'before simple BEGIN',
      'after simple BEGIN -> T BEGIN',
      'before extended SELECT 1 / $1::int ["0"]',
      'after extended SELECT 1 / $1::int ["0"] -> E  22012',
      'before simple ROLLBACK',
      'after simple ROLLBACK -> I ROLLBACK',
    ]);
  });

  it('holds a statement away from the server until the gate opens, while another connection works', async () => {
    const heard: Heard[] = [];
    let open: () => void = () => {};
    let reached: () => void = () => {};
    const atGate = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const via = await start(heard, async (_info, statement) => {
      if (!statement.text.includes('held')) return;
      reached();
      await new Promise<void>((resolve) => {
        open = resolve;
      });
    });
    const first = await through(via);
    const second = await through(via);
    const pid = (await first.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
    let settled = false;
    const held = first.query("SELECT 'held' AS word").finally(() => {
      settled = true;
    });
    await atGate;
    // The server's own view of the first backend: still idle after its previous statement.
    const seen = await second.query('SELECT state, query FROM pg_stat_activity WHERE pid = $1', [
      pid,
    ]);
    expect(seen.rows).toEqual([{ state: 'idle', query: 'SELECT pg_backend_pid() AS pid' }]);
    expect(settled).toBe(false);
    open();
    expect((await held).rows).toEqual([{ word: 'held' }]);
    const order = lines(heard).filter((l) => l.includes('held') || l.includes('pg_stat_activity'));
    expect(order).toEqual([
      "before simple SELECT 'held' AS word",
      `before extended SELECT state, query FROM pg_stat_activity WHERE pid = $1 ["${pid}"]`,
      `after extended SELECT state, query FROM pg_stat_activity WHERE pid = $1 ["${pid}"] -> I SELECT 1`,
      "after simple SELECT 'held' AS word -> I SELECT 1",
    ]);
  });

  it('sends a batch that asks for answers before its Sync (a Flush) once the gate opens', async () => {
    const heard: Heard[] = [];
    const client = await through(await start(heard));
    // `rows` makes node-postgres fetch a portal in pieces: Execute and Flush, with the Sync last.
    const result = await client.query({
      text: 'SELECT generate_series(1, $1::int) AS n',
      values: [3],
      rows: 1,
    } as pg.QueryConfig);
    expect(result.rows).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    // One statement for the whole batch; the server's tag counts the rows of the last Execute only.
    expect(lines(heard)).toEqual([
      'before extended SELECT generate_series(1, $1::int) AS n ["3"]',
      'after extended SELECT generate_series(1, $1::int) AS n ["3"] -> I SELECT 0',
    ]);
  });

  it('lets a pipelining client have one statement on the server at a time, in the order sent', async () => {
    const heard: Heard[] = [];
    // node-postgres's pipeline mode writes every query at once, without waiting for answers.
    const client = await through(await start(heard), { pipeline: true } as pg.ClientConfig);
    const results = await Promise.all([
      client.query('SELECT $1::int AS n', [1]),
      client.query('SELECT 2 AS n'),
      client.query('SELECT $1::int AS n', [3]),
    ]);
    expect(results.map((r) => r.rows)).toEqual([[{ n: 1 }], [{ n: 2 }], [{ n: 3 }]]);
    expect(lines(heard)).toEqual([
      'before extended SELECT $1::int AS n ["1"]',
      'after extended SELECT $1::int AS n ["1"] -> I SELECT 1',
      'before simple SELECT 2 AS n',
      'after simple SELECT 2 AS n -> I SELECT 1',
      'before extended SELECT $1::int AS n ["3"]',
      'after extended SELECT $1::int AS n ["3"] -> I SELECT 1',
    ]);
  });

  it('refuses a client that insists on SSL with a clear error, not a hang', async () => {
    const via = await start([]);
    await expect(through(via, { ssl: { rejectUnauthorized: false } })).rejects.toThrow(
      'The server does not support SSL connections',
    );
  });

  it('serves libpq (psql), which asks for SSL first and goes plain when declined', async () => {
    const heard: Heard[] = [];
    const via = await start(heard);
    const args = ['-X', '-A', '-t', '-h', via.host, '-p', String(via.port), '-c', 'SELECT 40 + 2'];
    const env = {
      ...process.env,
      PGUSER: decodeURIComponent(server.username),
      PGPASSWORD: decodeURIComponent(server.password),
      PGDATABASE: server.pathname.slice(1),
      PGSSLMODE: 'prefer',
    };
    const { stdout } = await promisify(execFile)('psql', args, { env, timeout: 30_000 });
    expect(stdout).toBe('42\n');
    // psql's exit does not wait for the proxy to see its socket close, so that event is not compared.
    expect(lines(heard.filter((h) => h.at !== 'closed'))).toEqual([
      'before simple SELECT 40 + 2',
      'after simple SELECT 40 + 2 -> I SELECT 1',
    ]);
  });

  it("passes the server's authentication answer through: a wrong password fails, nothing is gated", async () => {
    const heard: Heard[] = [];
    const via = await start(heard);
    await expect(through(via, { password: 'not-the-password' })).rejects.toThrow(
      'password authentication failed',
    );
    expect(heard.filter((h) => h.at !== 'closed')).toEqual([]);
  });

  it('closes the connection whose gate rejects, and no other', async () => {
    const heard: Heard[] = [];
    const via = await start(heard, async (_info, statement) => {
      if (statement.text.includes('refused')) throw new Error('refused by the owner');
    });
    const refused = await through(via);
    const other = await through(via);
    refused.on('error', () => {});
    await expect(refused.query("SELECT 'refused'")).rejects.toThrow();
    expect((await other.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    const closed = heard.filter((h) => h.at === 'closed');
    expect(closed.map((h) => [h.info.connection, h.error?.message])).toEqual([
      [1, 'refused by the owner'],
    ]);
    expect(via.openConnections()).toBe(1);
  });

  it('closes every connection on close(), even one held at its gate', async () => {
    const heard: Heard[] = [];
    let reached: () => void = () => {};
    const atGate = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const via = await start(heard, async (_info, statement) => {
      if (!statement.text.includes('held')) return;
      reached();
      await new Promise<void>(() => {}); // never opens
    });
    const held = await through(via);
    const idle = await through(via);
    for (const c of [held, idle]) c.on('error', () => {});
    const query = held.query("SELECT 'held'");
    await atGate;
    expect(via.openConnections()).toBe(2);
    await via.close();
    await expect(query).rejects.toThrow();
    expect(via.openConnections()).toBe(0);
    expect(
      heard
        .filter((h) => h.at === 'closed')
        .map((h) => h.info.connection)
        .sort(),
    ).toEqual([1, 2]);
    await expect(through(via)).rejects.toThrow('ECONNREFUSED');
  });
});
