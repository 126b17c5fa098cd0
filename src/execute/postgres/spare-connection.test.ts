/**
 * The spare connection: opened ahead only once asked for, taken by the next replacement, never
 * taken when it failed to open, and ended when dropped. Fake clients: no server needed.
 */
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { SpareConnection } from './spare-connection.ts';

/** A fake opener: numbered clients that record being ended; `failNext` makes the next open fail. */
function opener() {
  const ended: number[] = [];
  let opened = 0;
  let failNext = false;
  const open = async (): Promise<pg.Client> => {
    const n = ++opened;
    if (failNext) {
      failNext = false;
      throw new Error('cannot connect');
    }
    return { n, end: async () => void ended.push(n) } as unknown as pg.Client;
  };
  return {
    open,
    ended,
    opened: () => opened,
    failNext: () => {
      failNext = true;
    },
  };
}

const numberOf = (c: pg.Client) => (c as unknown as { n: number }).n;

describe('SpareConnection', () => {
  it('opens on demand, and hands out the spare opened ahead once a connection was ended', async () => {
    const o = opener();
    const spare = new SpareConnection(o.open);
    expect(numberOf(await spare.take())).toBe(1);
    expect(o.opened()).toBe(1);
    spare.prepare();
    spare.prepare(); // one spare at most
    expect(o.opened()).toBe(2);
    expect(numberOf(await spare.take())).toBe(2);
    expect(numberOf(await spare.take())).toBe(3); // no spare left: opened now
  });

  it('opens a new one when the spare failed, and ends the spare when dropped', async () => {
    const o = opener();
    const spare = new SpareConnection(o.open);
    o.failNext();
    spare.prepare();
    expect(numberOf(await spare.take())).toBe(2);
    spare.prepare();
    await spare.drop();
    expect(o.ended).toEqual([3]);
    expect(numberOf(await spare.take())).toBe(4);
  });
});
