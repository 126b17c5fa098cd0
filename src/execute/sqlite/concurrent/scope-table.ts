/**
 * The principals' write scopes during a concurrent run, shared by every worker: the harness-side
 * half of the world, since a revocation changes trusted context, not the database.
 *
 * What "a revoke racing a call" means here. A call reads its principal's scope when it is
 * invoked and keeps that reading until it returns; a revoke or restore takes effect at one
 * instant *between* that principal's calls. Each principal has a readers–writer lock in the
 * table: a call holds it shared for its whole duration, a scope change takes it exclusively,
 * waiting for calls in flight to finish and keeping new ones out until the bit is flipped. A
 * call racing a revoke therefore sees either the old scope or the new one, and the one it saw
 * is the truth for its whole interval. That is what makes the history linearizable against the
 * model, which treats a call as one atomic step: without the lock a call could pass its scope
 * check, then be overtaken by a revoke and by another call that the revoke's completion
 * happens-before, which no serial order explains. It is also how real systems revoke: at request
 * boundaries, never in the middle of a transaction. The call's recorded interval covers the
 * lock, so the checker may still order it on either side of an overlapping revoke.
 *
 * Layout: three Int32 cells per principal, `granted`, `readers`, `writer`.
 */

import type { Principal } from '../../../model/world.ts';
import type { ScopeTableRef } from './protocol.ts';

const GRANTED = 0;
const READERS = 1;
const WRITER = 2;
const CELLS = 3;

/** A table initialised from the fixture's principals and the operation's `scope`. One per run. */
export function createScopeTable(principals: readonly Principal[], scope: string): ScopeTableRef {
  const buffer = new SharedArrayBuffer(principals.length * CELLS * Int32Array.BYTES_PER_ELEMENT);
  const cells = new Int32Array(buffer);
  principals.forEach((p, i) => {
    cells[i * CELLS + GRANTED] = p.scopes.includes(scope) ? 1 : 0;
  });
  return { buffer, principals: principals.length };
}

/**
 * Takes `client`'s lock shared and returns whether the write scope is granted; undefined when
 * `limitMs` passed first. Worker side (it may block). Pair with `endScopeRead`.
 */
export function beginScopeRead(
  table: ScopeTableRef,
  client: number,
  limitMs: number,
): boolean | undefined {
  const cells = new Int32Array(table.buffer);
  const base = cellBase(table, client);
  const deadline = performance.now() + limitMs;
  for (;;) {
    while (Atomics.load(cells, base + WRITER) !== 0) {
      const left = deadline - performance.now();
      if (left <= 0) return undefined;
      Atomics.wait(cells, base + WRITER, 1, left);
    }
    Atomics.add(cells, base + READERS, 1);
    // Announce first, then look: a writer that set its flag after our look will see us.
    if (Atomics.load(cells, base + WRITER) === 0) return Atomics.load(cells, base + GRANTED) === 1;
    endScopeRead(table, client);
  }
}

/** Releases what `beginScopeRead` took. */
export function endScopeRead(table: ScopeTableRef, client: number): void {
  const cells = new Int32Array(table.buffer);
  const base = cellBase(table, client);
  if (Atomics.sub(cells, base + READERS, 1) === 1) Atomics.notify(cells, base + READERS);
}

/**
 * Grants or removes `client`'s write scope once no call of that principal is in flight. Worker
 * side (it may block). Returns false when `limitMs` passed first; nothing changed then.
 */
export function writeScope(
  table: ScopeTableRef,
  client: number,
  granted: boolean,
  limitMs: number,
): boolean {
  const cells = new Int32Array(table.buffer);
  const base = cellBase(table, client);
  const deadline = performance.now() + limitMs;
  while (Atomics.compareExchange(cells, base + WRITER, 0, 1) !== 0) {
    const left = deadline - performance.now();
    if (left <= 0) return false;
    Atomics.wait(cells, base + WRITER, 1, left);
  }
  try {
    for (;;) {
      const readers = Atomics.load(cells, base + READERS);
      if (readers === 0) break;
      const left = deadline - performance.now();
      if (left <= 0) return false;
      Atomics.wait(cells, base + READERS, readers, left);
    }
    Atomics.store(cells, base + GRANTED, granted ? 1 : 0);
    return true;
  } finally {
    Atomics.store(cells, base + WRITER, 0);
    Atomics.notify(cells, base + WRITER);
  }
}

function cellBase(table: ScopeTableRef, client: number): number {
  if (!Number.isSafeInteger(client) || client < 0 || client >= table.principals)
    throw new RangeError(`no principal for client ${client} in the scope table`);
  return client * CELLS;
}
