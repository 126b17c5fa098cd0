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
 * Two more operations serve `state-key.ts`: `hashSum` keeps its sums on the nodes, so hashing a map one
 * step away from a hashed one touches only the changed path; `sameEntries` skips every node the
 * two maps share.
 */

type Key = string | number;

/**
 * Every node caches one hash sum (`hashSum`) and the token of the entry hash it was taken with:
 * a field on the node costs the garbage collector nothing, where a WeakMap entry per node (an
 * ephemeron) made every collection of a long search's heap walk a million of them.
 */
class Leaf<K, V> {
  sum = 0;
  sumToken: object | undefined = undefined;
  constructor(
    readonly hash: number,
    readonly key: K,
    readonly value: V,
  ) {}
}

/** Entries whose keys hash alike, all 32 bits. */
class Collision<K, V> {
  sum = 0;
  sumToken: object | undefined = undefined;
  constructor(
    readonly hash: number,
    readonly leaves: readonly Leaf<K, V>[],
  ) {}
}

class Branch<K, V> {
  sum = 0;
  sumToken: object | undefined = undefined;
  /**
   * Set when this branch was copied from a summed one with one child changed: the old sum
   * without that child, so that summing this one reads one child instead of up to 32. Numbers
   * only, so no old version of the map is kept alive by it.
   */
  partialSum = 0;
  partialToken: object | undefined = undefined;
  partialAt = -1;
  constructor(
    readonly bitmap: number,
    readonly children: readonly Node<K, V>[],
  ) {}
}

type Node<K, V> = Leaf<K, V> | Collision<K, V> | Branch<K, V>;

const BITS = 5;
const MASK = 31;

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

function insert<K, V>(
  node: Node<K, V>,
  shift: number,
  leaf: Leaf<K, V>,
  added: { count: number },
): Node<K, V> {
  if (node instanceof Branch) {
    const bit = 1 << ((leaf.hash >>> shift) & MASK);
    const at = popcount(node.bitmap & (bit - 1));
    if ((node.bitmap & bit) === 0) {
      added.count = 1;
      const children = node.children.slice();
      children.splice(at, 0, leaf);
      return derived(new Branch(node.bitmap | bit, children), node, undefined, at);
    }
    const child = node.children[at] as Node<K, V>;
    const next = insert(child, shift + BITS, leaf, added);
    if (next === child) return node;
    const children = node.children.slice();
    children[at] = next;
    return derived(new Branch(node.bitmap, children), node, child, at);
  }
  if (node.hash !== leaf.hash) {
    added.count = 1;
    return split(shift, node, leaf);
  }
  if (node instanceof Leaf) {
    if (node.key === leaf.key) return node.value === leaf.value ? node : leaf;
    added.count = 1;
    return new Collision(leaf.hash, [node, leaf]);
  }
  const i = node.leaves.findIndex((l) => l.key === leaf.key);
  if (i >= 0 && node.leaves[i]?.value === leaf.value) return node;
  const leaves = [...node.leaves];
  if (i >= 0) leaves[i] = leaf;
  else {
    added.count = 1;
    leaves.push(leaf);
  }
  return new Collision(leaf.hash, leaves);
}

/**
 * Notes on `copy` (made from `from` with child `at` replaced, or inserted when `replaced` is
 * undefined) the sum of `from`'s other children, when `from` was summed.
 */
function derived<K, V>(
  copy: Branch<K, V>,
  from: Branch<K, V>,
  replaced: Node<K, V> | undefined,
  at: number,
): Branch<K, V> {
  const token = from.sumToken;
  if (token === undefined) return copy;
  if (replaced === undefined) copy.partialSum = from.sum;
  else if (replaced.sumToken === token) copy.partialSum = (from.sum - replaced.sum) | 0;
  else return copy;
  copy.partialToken = token;
  copy.partialAt = at;
  return copy;
}

/** A branch holding two nodes whose hashes differ, at the first level where they do. */
function split<K, V>(shift: number, a: Leaf<K, V> | Collision<K, V>, b: Leaf<K, V>): Branch<K, V> {
  const fa = (a.hash >>> shift) & MASK;
  const fb = (b.hash >>> shift) & MASK;
  if (fa === fb) return new Branch(1 << fa, [split(shift + BITS, a, b)]);
  return new Branch((1 << fa) | (1 << fb), fa < fb ? [a, b] : [b, a]);
}

/** `node` without `key`: the same node when absent, undefined when nothing is left. */
function remove<K, V>(
  node: Node<K, V>,
  shift: number,
  hash: number,
  key: K,
): Node<K, V> | undefined {
  if (node instanceof Leaf) return node.key === key ? undefined : node;
  if (node instanceof Collision) {
    const leaves = node.leaves.filter((l) => l.key !== key);
    if (leaves.length === node.leaves.length) return node;
    return leaves.length === 1 ? leaves[0] : new Collision(node.hash, leaves);
  }
  const bit = 1 << ((hash >>> shift) & MASK);
  if ((node.bitmap & bit) === 0) return node;
  const at = popcount(node.bitmap & (bit - 1));
  const child = node.children[at] as Node<K, V>;
  const next = remove(child, shift + BITS, hash, key);
  if (next === child) return node;
  const children = node.children.slice();
  if (next === undefined) children.splice(at, 1);
  else children[at] = next;
  const bitmap = next === undefined ? node.bitmap & ~bit : node.bitmap;
  if (children.length === 0) return undefined;
  // A lone leaf moves up, so a key set has one shape whatever was inserted and removed.
  const only = children[0];
  if (children.length === 1 && !(only instanceof Branch)) return only;
  return new Branch(bitmap, children);
}

function* leavesOf<K, V>(node: Node<K, V>): Generator<Leaf<K, V>> {
  if (node instanceof Leaf) yield node;
  else if (node instanceof Collision) yield* node.leaves;
  else for (const child of node.children) yield* leavesOf(child);
}

function sumNode<K, V>(
  node: Node<K, V>,
  entryHash: (key: K, value: V) => number,
  token: object,
): number {
  if (node.sumToken === token) return node.sum;
  let h = 0;
  if (node instanceof Leaf) h = entryHash(node.key, node.value) | 0;
  else if (node instanceof Collision)
    for (const l of node.leaves) h = (h + entryHash(l.key, l.value)) | 0;
  else if (node.partialToken === token)
    h =
      (node.partialSum + sumNode(node.children[node.partialAt] as Node<K, V>, entryHash, token)) |
      0;
  else for (const child of node.children) h = (h + sumNode(child, entryHash, token)) | 0;
  node.sum = h;
  node.sumToken = token;
  return h;
}

function sameNode<K, V>(a: Node<K, V>, b: Node<K, V>, same: (a: V, b: V) => boolean): boolean {
  if (a === b) return true;
  if (a instanceof Branch && b instanceof Branch && a.bitmap === b.bitmap)
    return a.children.every((child, i) => sameNode(child, b.children[i] as Node<K, V>, same));
  // Different shapes over the same slice of hashes: compare their entries as sets.
  const left = [...leavesOf(a)];
  const right = new Map([...leavesOf(b)].map((l) => [l.key, l.value]));
  return (
    left.length === right.size &&
    left.every((l) => right.has(l.key) && same(l.value, right.get(l.key) as V))
  );
}

function popcount(x: number): number {
  let n = x - ((x >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** FNV-1a over a string's UTF-16 code units; an integer key is mixed (murmur3's finaliser). */
function hashKey(key: Key): number {
  if (typeof key === 'number') {
    let x = Math.imul(key | 0, 0x85ebca6b);
    x ^= x >>> 13;
    x = Math.imul(x, 0xc2b2ae35);
    return (x ^ (x >>> 16)) | 0;
  }
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h;
}
