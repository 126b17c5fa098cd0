/**
 * The PostgreSQL proxy against the test run's real server, with node-postgres as the client: every
 * statement reaches the owner's hooks in order with its SQL, values and the backend's pid; a held
 * statement really is held (the server has not seen it while another connection works); one
 * statement per connection is on the server at a time. No check depends on timing: a held
 * statement is observed through the server's own `pg_stat_activity`, and waits are on the hooks'
 * promises or on a condition the server reports.
 */
import { Socket } from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { type Heard, lines, ProxyBench } from './fixtures/proxy-bench.ts';

const bench = new ProxyBench(new URL(inject('postgresUrl')));
afterEach(() => bench.close());

describe('statements through the PostgreSQL proxy', () => {
  it('hands each statement to the hooks in order, with its SQL, values, pid and ending', async () => {
    const heard: Heard[] = [];
    const client = await bench.through(await bench.start(heard));
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

  it('sends every message on at once, both ways (no Nagle delay: about 40 ms a statement)', async () => {
    const noDelay = vi.spyOn(Socket.prototype, 'setNoDelay');
    try {
      const client = await bench.through(await bench.start([]));
      await client.query('SELECT 1');
      // Both of the proxy's sockets, beside the one node-postgres itself sets on the client side.
      const proxied = noDelay.mock.contexts.filter((socket) => socket !== clientSocket(client));
      expect(new Set(proxied).size).toBe(2);
      expect(noDelay.mock.calls.every(([on]) => on !== false)).toBe(true);
    } finally {
      noDelay.mockRestore();
    }
  });

  it('holds a statement away from the server until the gate opens, while another connection works', async () => {
    const heard: Heard[] = [];
    let open: () => void = () => {};
    let reached: () => void = () => {};
    const atGate = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const via = await bench.start(heard, async (_info, statement) => {
      if (!statement.text.includes('held')) return;
      reached();
      await new Promise<void>((resolve) => {
        open = resolve;
      });
    });
    const first = await bench.through(via);
    const second = await bench.through(via);
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

  it('names the backend pids that the server reports a blocked statement by', async () => {
    const heard: Heard[] = [];
    const via = await bench.start(heard);
    const [holder, waiter] = [await bench.through(via), await bench.through(via)];
    const watch = new pg.Client(inject('postgresUrl'));
    await watch.connect();
    try {
      const key = 7_000_000 + process.pid; // an advisory lock no other test file takes
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [key]);
      const waiting = waiter.query('SELECT pg_advisory_xact_lock($1)', [key]);
      const pidOf = (n: number) =>
        heard.find((h) => h.info.connection === n && h.info.pid)?.info.pid;
      // What the scheduler's lock watch does: ask the server, by pid, until the wait shows.
      let blockers: number[] = [];
      for (let tries = 0; tries < 1_000 && blockers.length === 0; tries++) {
        const seen = await watch.query('SELECT pg_blocking_pids($1) AS pids', [pidOf(2)]);
        blockers = seen.rows[0]?.pids ?? [];
      }
      expect(blockers).toEqual([pidOf(1)]);
      expect(lines(heard).filter((l) => l.startsWith('after') && l.includes('lock'))).toEqual([
        `after extended SELECT pg_advisory_xact_lock($1) ["${key}"] -> T SELECT 1`,
      ]);
      await holder.query('COMMIT');
      await waiting;
      // The waiter's own last event: the holder's COMMIT answer may come before or after it.
      const waiterHeard = heard.filter((h) => h.info.connection === 2 && h.at !== 'closed');
      expect(lines(waiterHeard).at(-1)).toBe(
        `after extended SELECT pg_advisory_xact_lock($1) ["${key}"] -> I SELECT 1`,
      );
    } finally {
      await watch.end();
    }
  });

  it('sends a batch that asks for answers before its Sync (a Flush) once the gate opens', async () => {
    const heard: Heard[] = [];
    const client = await bench.through(await bench.start(heard));
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
    const client = await bench.through(await bench.start(heard), {
      pipeline: true,
    } as pg.ClientConfig);
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

  it("answers a statement its owner cancelled with the owner's error, to the client and the hooks", async () => {
    const heard: Heard[] = [];
    const via = await bench.start(heard, undefined, (_info, code) =>
      code === '57014' ? { code: '40P01', message: 'deadlock detected' } : undefined,
    );
    const client = await bench.through(via);
    const direct = await bench.through(via);
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]
      ?.pid;
    const sleeping = client.query('SELECT pg_sleep(60)').catch((error: unknown) => error);
    // On the server once its backend runs it: the server's own view, not a timer.
    while (
      (
        await direct.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active'", [
          pid,
        ])
      ).rowCount === 0
    );
    await direct.query('SELECT pg_cancel_backend($1)', [pid]);
    expect(await sleeping).toMatchObject({ code: '40P01', message: 'deadlock detected' });
    // Any other error reaches the client as the server sent it.
    await expect(client.query('SELECT 1 / 0')).rejects.toMatchObject({ code: '22012' });
    // The client hears an error before the statement's ReadyForQuery, which may come in a later
    // packet; the next statement reaches the server only after it, so the hook has run by now.
    expect(lines(heard)).toContain('after simple SELECT pg_sleep(60) -> I  40P01');
  });
});

/** The socket node-postgres opened for `client`. */
function clientSocket(client: pg.Client): Socket {
  return (client as unknown as { connection: { stream: Socket } }).connection.stream;
}
