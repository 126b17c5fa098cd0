/**
 * The shared-memory pieces on one thread: the release barrier (all parties pass, a missing one is
 * reported after the limit) and the scope table's lock (a scope change waits for calls in flight
 * and is refused at the limit; a call waits for a scope change in progress).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURE, WRITE_SCOPE } from '../../../model/world.ts';
import { createGate, passGate } from './gate.ts';
import { beginScopeRead, createScopeTable, endScopeRead, writeScope } from './scope-table.ts';

describe('gate', () => {
  it('lets the last party open it for everyone', () => {
    const gate = createGate(1);
    expect(passGate(gate, 10)).toBe(true);
  });

  it('reports a party that never comes instead of waiting forever', () => {
    const gate = createGate(2);
    const started = performance.now();
    expect(passGate(gate, 30)).toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(29);
  });
});

describe('scope table', () => {
  it('starts from the fixture and flips one principal', () => {
    const table = createScopeTable(DEFAULT_FIXTURE.principals, WRITE_SCOPE);
    expect(writeScope(table, 1, false, 10)).toBe(true);
    expect(beginScopeRead(table, 1, 10)).toBe(false);
    endScopeRead(table, 1);
    expect(beginScopeRead(table, 0, 10)).toBe(true);
    endScopeRead(table, 0);
  });

  it('makes a revoke wait for a call in flight, and gives up at the limit', () => {
    const table = createScopeTable(DEFAULT_FIXTURE.principals, WRITE_SCOPE);
    expect(beginScopeRead(table, 0, 10)).toBe(true);
    expect(writeScope(table, 0, false, 20)).toBe(false);
    endScopeRead(table, 0);
    expect(writeScope(table, 0, false, 20)).toBe(true);
    expect(beginScopeRead(table, 0, 10)).toBe(false);
  });

  it('rejects a client the table has no principal for', () => {
    const table = createScopeTable(DEFAULT_FIXTURE.principals, WRITE_SCOPE);
    expect(() => beginScopeRead(table, 7, 10)).toThrow(RangeError);
  });
});
