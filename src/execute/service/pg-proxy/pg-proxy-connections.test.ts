/**
 * Connections through the PostgreSQL proxy: SSL declined and libpq going plain, authentication
 * passed through, a connection closed when its owner refuses a statement, and nothing left open
 * after `close()`.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type Heard, lines, ProxyBench } from './fixtures/proxy-bench.ts';

const server = new URL(inject('postgresUrl'));
const bench = new ProxyBench(server);
afterEach(() => bench.close());

describe('connections through the PostgreSQL proxy', () => {
  it('refuses a client that insists on SSL with a clear error, not a hang', async () => {
    const via = await bench.start([]);
    await expect(bench.through(via, { ssl: { rejectUnauthorized: false } })).rejects.toThrow(
      'The server does not support SSL connections',
    );
  });

  it('serves libpq (psql), which asks for SSL first and goes plain when declined', async () => {
    const heard: Heard[] = [];
    const via = await bench.start(heard);
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
    const via = await bench.start(heard);
    await expect(bench.through(via, { password: 'not-the-password' })).rejects.toThrow(
      'password authentication failed',
    );
    expect(heard.filter((h) => h.at !== 'closed')).toEqual([]);
  });

  it('closes the connection whose gate rejects, and no other', async () => {
    const heard: Heard[] = [];
    const via = await bench.start(heard, async (_info, statement) => {
      if (statement.text.includes('refused')) throw new Error('refused by the owner');
    });
    const refused = await bench.through(via);
    const other = await bench.through(via);
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
    const via = await bench.start(heard, async (_info, statement) => {
      if (!statement.text.includes('held')) return;
      reached();
      await new Promise<void>(() => {}); // never opens
    });
    const held = await bench.through(via);
    const idle = await bench.through(via);
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
    await expect(bench.through(via)).rejects.toThrow('ECONNREFUSED');
  });
});
