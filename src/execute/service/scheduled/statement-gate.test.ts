/**
 * The gate's attribution rules, without a server: a statement from a free connection goes to the
 * lane that runs and is held; a connection stays its lane's while a transaction is open, and is
 * free again once it ends; a world event's connection is its lane's whatever runs; the service's
 * own traffic while no lane runs goes through unheld (logged only during a plain step); a
 * connection that closes lets its held statement go.
 */
import { describe, expect, it } from 'vitest';
import type { ProxyStatement, ProxyStatementResult } from '../pg-proxy/proxy-hooks.ts';
import { type GateReport, StatementGate } from './statement-gate.ts';

const conn = (connection: number, pid = 100 + connection) => ({ connection, pid });
const q = (text: string): ProxyStatement => ({ kind: 'simple', text, values: [] });
const ended = (status: 'I' | 'T', ...commands: string[]): ProxyStatementResult => ({
  status,
  commands,
});

/** Whether `p` has settled, after the microtasks queued so far ran. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

const next = (gate: StatementGate, lane: number) => gate.next(lane, 1_000);

describe('the statement gate', () => {
  it("lets the service's own traffic through while no lane runs, and reports nothing", async () => {
    const gate = new StatementGate();
    expect(await settled(gate.beforeStatement(conn(1), q('SELECT 1')))).toBe(true);
    gate.afterStatement(conn(1), q('SELECT 1'), ended('I', 'SELECT 1'));
    expect(await gate.next(0, 1)).toBeUndefined();
  });

  it('logs a plain step’s statements with how they ended', async () => {
    const gate = new StatementGate();
    gate.startPlain();
    for (const [sql, end] of [
      ['BEGIN', ended('T', 'BEGIN')],
      ['INSERT INTO t VALUES (1)', ended('T', 'INSERT 0 1')],
      ['COMMIT', ended('I', 'COMMIT')],
    ] as const) {
      expect(await settled(gate.beforeStatement(conn(1), q(sql)))).toBe(true);
      gate.afterStatement(conn(1), q(sql), end);
    }
    expect(gate.takePlain()).toEqual([
      { sql: 'BEGIN', write: false, result: 'ok', durable: false },
      { sql: 'INSERT INTO t VALUES (1)', write: true, result: 'ok', durable: false },
      { sql: 'COMMIT', write: false, result: 'ok', durable: true },
    ]);
  });

  it('holds a statement for the running lane, and keeps the connection its own while a transaction is open', async () => {
    const gate = new StatementGate();
    gate.running = 0;
    const begin = gate.beforeStatement(conn(1), q('BEGIN'));
    expect(await settled(begin)).toBe(false);
    expect(await next(gate, 0)).toEqual<GateReport>({
      type: 'statement',
      sql: 'BEGIN',
      values: [],
      write: false,
    });
    expect(gate.running).toBeUndefined();
    const out = gate.release(0);
    expect(await settled(begin)).toBe(true);
    gate.afterStatement(conn(1), q('BEGIN'), ended('T', 'BEGIN'));
    expect(out.end).toEqual({ result: 'ok', durable: false });
    expect(gate.inTransaction()).toEqual([{ pid: 101, sql: 'BEGIN' }]);
    // Another lane runs now; the open transaction keeps connection 1 lane 1's.
    gate.running = 1;
    const update = gate.beforeStatement(conn(1), q('UPDATE t SET a = 1'));
    expect(await next(gate, 0)).toMatchObject({ sql: 'UPDATE t SET a = 1', write: true });
    gate.release(0);
    await update;
    gate.afterStatement(conn(1), q('UPDATE t SET a = 1'), ended('T', 'UPDATE 1'));
    const commit = gate.beforeStatement(conn(1), q('COMMIT'));
    await next(gate, 0);
    const committed = gate.release(0);
    await commit;
    gate.afterStatement(conn(1), q('COMMIT'), ended('I', 'COMMIT'));
    expect(committed.end).toEqual({ result: 'ok', durable: true });
    expect(gate.inTransaction()).toEqual([]);
    // The transaction is over: the pooled connection is free, and goes to whoever runs.
    gate.running = 1;
    void gate.beforeStatement(conn(1), q('SELECT 2'));
    expect(await next(gate, 1)).toMatchObject({ sql: 'SELECT 2' });
    expect(gate.pidsOf(1)).toEqual([101]);
    expect(gate.pidsOf(0)).toEqual([]);
  });

  it("gives a world event's connection to its lane whatever runs", async () => {
    const gate = new StatementGate();
    gate.own(102, 2);
    gate.running = 0;
    void gate.beforeStatement(conn(2), q('DELETE FROM automations WHERE id = $1'));
    expect(await next(gate, 2)).toMatchObject({ write: true });
    expect(await gate.next(0, 1)).toBeUndefined();
  });

  it('lets a held statement go when its connection closes', async () => {
    const gate = new StatementGate();
    gate.running = 0;
    const held = gate.beforeStatement(conn(1), q('SELECT 1'));
    await next(gate, 0);
    expect(await settled(held)).toBe(false);
    gate.connectionClosed(conn(1));
    expect(await settled(held)).toBe(true);
    expect(gate.pidsOf(0)).toEqual([]);
  });
});
