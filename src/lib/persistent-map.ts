/**
 * An immutable hash map with structural sharing (a hash array mapped trie): `with` and `without`
 * return a new map that shares every node off the changed path, in O(log n) instead of the O(n)
 * of copying a `Map`. The model's receipts, stored refusals and expiries grow with every fresh
 * call of a long history (a soak mints a request id per intent), and `step` returns a new state
 * per event: copied Maps made replaying such a history quadratic.
 *
 * Reads through `ReadonlyMap`, so code that only reads a state does not know the difference.
 * Iteration follows the keys' hashes, not insertion order: only maps whose readers sort or
 * sum (receipts, refusals, expiries) use it; the rows, which generation walks in order, stay Maps.
 *
 * Two more operations serve the linearizability search's state hash and equality: `hashSum`
 * keeps its sums on the nodes (`trie-nodes.ts`), so hashing a map one step away from a hashed one
 * touches only the changed path; `sameEntries` skips every node the
 * two maps share.
 */

import {
  BITS,
  Collision,
  hashKey,
  insert,
  type Key,
  Leaf,
  leavesOf,
  MASK,
  type Node,
  popcount,
  remove,
  sameNode,
  sumNode,
} from './trie-nodes.ts';

/** An immutable map; build one with `PersistentMap.empty()` or `PersistentMap.from(...)`. */
export class PersistentMap<K extends Key, V> implements ReadonlyMap<K, V> {
  private constructor(
    private readonly root: Node<K, V> | undefined,
    readonly size: number,
  ) {}

  /** The empty map. */
  static empty<K extends Key, V>(): PersistentMap<K, V> {
    return new PersistentMap<K, V>(undefined, 0);
  }

  /** A map of `entries` (a later duplicate key wins); a `PersistentMap` is returned as it is. */
  static from<K extends Key, V>(
    entries: ReadonlyMap<K, V> | Iterable<readonly [K, V]>,
  ): PersistentMap<K, V> {
    if (entries instanceof PersistentMap) return entries as PersistentMap<K, V>;
    let map = PersistentMap.empty<K, V>();
    for (const [k, v] of entries) map = map.with(k, v);
    return map;
  }

  get(key: K): V | undefined {
    return this.leafOf(key)?.value;
  }

  has(key: K): boolean {
    return this.leafOf(key) !== undefined;
  }

  /** This map with `key` set to `value`; this map itself when it already held exactly that. */
  with(key: K, value: V): PersistentMap<K, V> {
    const hash = hashKey(key);
    const leaf = new Leaf(hash, key, value);
    if (this.root === undefined) return new PersistentMap(leaf, 1);
    const added = { count: 0 };
    const root = insert(this.root, 0, leaf, added);
    return root === this.root ? this : new PersistentMap(root, this.size + added.count);
  }

  /** This map without `key`; this map itself when it had no such key. */
  without(key: K): PersistentMap<K, V> {
    if (this.root === undefined) return this;
    const root = remove(this.root, 0, hashKey(key), key);
    return root === this.root ? this : new PersistentMap(root, this.size - 1);
  }

  *entries(): MapIterator<[K, V]> {
    if (this.root) for (const leaf of leavesOf(this.root)) yield [leaf.key, leaf.value];
  }

  *keys(): MapIterator<K> {
    if (this.root) for (const leaf of leavesOf(this.root)) yield leaf.key;
  }

  *values(): MapIterator<V> {
    if (this.root) for (const leaf of leavesOf(this.root)) yield leaf.value;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void): void {
    for (const [k, v] of this.entries()) fn(v, k, this);
  }

  /**
   * The sum, modulo 2^32, of `entryHash` over the entries: independent of order, like summing
   * over a `Map`. Each node keeps its sum with `token`, which names the entry hash (the same
   * token must always mean the same function), so a map sharing most nodes with one already
   * summed costs only its new nodes. A node summed with another token is summed again.
   */
  hashSum(entryHash: (key: K, value: V) => number, token: object): number {
    return this.root === undefined ? 0 : sumNode(this.root, entryHash, token);
  }

  private leafOf(key: K): Leaf<K, V> | undefined {
    let node = this.root;
    // An empty map (a model's refusals and expiries, most of the time) costs no hashing of the key.
    if (node === undefined) return undefined;
    const hash = hashKey(key);
    for (let shift = 0; node !== undefined; shift += BITS) {
      if (node instanceof Leaf) return node.key === key ? node : undefined;
      if (node instanceof Collision) return node.leaves.find((l) => l.key === key);
      const bit = 1 << ((hash >>> shift) & MASK);
      if ((node.bitmap & bit) === 0) return undefined;
      node = node.children[popcount(node.bitmap & (bit - 1))];
    }
    return undefined;
  }

  /** Whether both maps hold the same keys with values `same` calls equal; shared nodes are skipped. */
  sameEntries(other: PersistentMap<K, V>, same: (a: V, b: V) => boolean): boolean {
    if (this.size !== other.size) return false;
    if (this.root === undefined || other.root === undefined) return this.root === other.root;
    return sameNode(this.root, other.root, same);
  }
}
