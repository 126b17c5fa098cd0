import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PersistentMap } from './persistent-map.ts';

// Two keys whose FNV-1a hashes are equal in all 32 bits, so collision nodes are exercised.
const COLLIDING = ['k32728', 'k261234'];

const key = fc.oneof(
  fc.constantFrom(...COLLIDING),
  fc.string({ maxLength: 3 }),
  fc.integer({ min: 0, max: 400 }).map((n) => `r${n}`),
);
const op = fc.oneof(
  fc.tuple(fc.constant('set' as const), key, fc.integer({ min: 0, max: 3 })),
  fc.tuple(fc.constant('delete' as const), key, fc.constant(0)),
);

function apply(ops: readonly (readonly ['set' | 'delete', string, number])[]) {
  let persistent = PersistentMap.empty<string, number>();
  const plain = new Map<string, number>();
  for (const [kind, k, v] of ops) {
    if (kind === 'set') {
      persistent = persistent.with(k, v);
      plain.set(k, v);
    } else {
      persistent = persistent.without(k);
      plain.delete(k);
    }
  }
  return { persistent, plain };
}

const sorted = (m: ReadonlyMap<string, number>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1));

describe('PersistentMap', () => {
  it('reads like a Map given the same sets and deletes', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 300 }),
        fc.array(key, { maxLength: 20 }),
        (ops, probes) => {
          const { persistent, plain } = apply(ops);
          expect(persistent.size).toBe(plain.size);
          expect(sorted(persistent)).toEqual(sorted(plain));
          for (const k of [...probes, ...COLLIDING]) {
            expect(persistent.get(k)).toBe(plain.get(k));
            expect(persistent.has(k)).toBe(plain.has(k));
          }
        },
      ),
    );
  });

  it('leaves the map it came from unchanged', () => {
    const before = PersistentMap.from([['a', 1], ...COLLIDING.map((k) => [k, 2] as const)]);
    const after = before
      .with('a', 9)
      .without(COLLIDING[0] as string)
      .with('b', 3);
    expect(sorted(before)).toEqual(
      sorted(new Map([['a', 1], ...COLLIDING.map((k) => [k, 2] as const)])),
    );
    expect(sorted(after)).toEqual([
      ['a', 9],
      ['b', 3],
      [COLLIDING[1], 2],
    ]);
    expect(before.with('a', 1)).toBe(before);
    expect(before.without('missing')).toBe(before);
  });

  it('sums hashes and compares entries whatever order built the maps', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.infiniteStream(fc.nat()), (ops, picks) => {
        const { persistent, plain } = apply(ops);
        const shuffled = [...plain].sort(() => (picks.next().value % 3) - 1);
        const rebuilt = PersistentMap.from(shuffled);
        const entryHash = (k: string, v: number) => k.length * 31 + v;
        const expected = [...plain].reduce((h, [k, v]) => (h + entryHash(k, v)) | 0, 0);
        expect(persistent.hashSum(entryHash, new WeakMap())).toBe(expected);
        expect(rebuilt.hashSum(entryHash, new WeakMap())).toBe(expected);
        expect(persistent.sameEntries(rebuilt, (a, b) => a === b)).toBe(true);
        const first = [...plain.keys()][0];
        if (first !== undefined) {
          expect(persistent.sameEntries(rebuilt.with(first, 99), (a, b) => a === b)).toBe(false);
          expect(persistent.sameEntries(rebuilt.without(first), (a, b) => a === b)).toBe(false);
        }
      }),
    );
  });

  it('sums a map one step from a summed one as it sums it from scratch', () => {
    // The search hashes each state one step from a hashed one: the copied branches then carry
    // their old sum (`partialSum`), and a wrong one would show here against the plain Map's.
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const entryHash = (k: string, v: number) => k.length * 31 + v * 7;
        const token = {};
        let map = PersistentMap.empty<string, number>();
        const plain = new Map<string, number>();
        for (const [kind, k, v] of ops) {
          map = kind === 'delete' ? map.without(k) : map.with(k, v);
          if (kind === 'delete') plain.delete(k);
          else plain.set(k, v);
          const expected = [...plain].reduce((h, [k, v]) => (h + entryHash(k, v)) | 0, 0);
          // One token throughout: summing with another would overwrite the nodes' sums.
          expect(map.hashSum(entryHash, token)).toBe(expected);
        }
      }),
    );
  });
});
