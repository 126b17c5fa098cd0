/**
 * The object a run gets over a kept connection shares that connection's prepared statements
 * (the bundled handlers' cache), so a plugin not declared replayable, an async one among them,
 * does not compile its SQL again every run; two real connections never share one.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cachedStatement } from '../../../handlers/sqlite/statement-cache.ts';
import { runConnection } from './run-connection.ts';

describe("a run's connection object and the statement cache", () => {
  it("shares the kept connection's statements, and is still an object of its own", () => {
    const kept = new Database(':memory:');
    const first = runConnection(kept);
    const second = runConnection(kept);
    expect(first).not.toBe(second);
    const sql = 'SELECT 1 AS one';
    const statement = cachedStatement(kept, sql);
    expect(cachedStatement(first, sql)).toBe(statement);
    expect(cachedStatement(second, sql)).toBe(statement);
    expect(cachedStatement(second, sql).get()).toEqual({ one: 1 });
    kept.close();
  });

  it('gives another connection statements of its own', () => {
    const a = new Database(':memory:');
    const b = new Database(':memory:');
    const sql = 'SELECT 2 AS two';
    expect(cachedStatement(runConnection(a), sql)).not.toBe(cachedStatement(b, sql));
    a.close();
    b.close();
  });
});
