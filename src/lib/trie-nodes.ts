/**
 * The nodes of `PersistentMap`'s hash array mapped trie and the pure functions over them:
 * insert, remove, iterate, sum and compare, each returning new nodes and sharing the rest.
 */

export type Key = string | number;

/**
 * Every node caches one hash sum (`hashSum`) and the token of the entry hash it was taken with:
 * a field on the node costs the garbage collector nothing, where a WeakMap entry per node (an
 * ephemeron) made every collection of a long search's heap walk a million of them.
 */
export class Leaf<K, V> {
  sum = 0;
  sumToken: object | undefined = undefined;
  constructor(
    readonly hash: number,
    readonly key: K,
    readonly value: V,
  ) {}
}

/** Entries whose keys hash alike, all 32 bits. */
export class Collision<K, V> {
  sum = 0;
  sumToken: object | undefined = undefined;
  constructor(
    readonly hash: number,
    readonly leaves: readonly Leaf<K, V>[],
  ) {}
}

export class Branch<K, V> {
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

export type Node<K, V> = Leaf<K, V> | Collision<K, V> | Branch<K, V>;

export const BITS = 5;
export const MASK = 31;

export function insert<K, V>(
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
export function derived<K, V>(
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
export function split<K, V>(
  shift: number,
  a: Leaf<K, V> | Collision<K, V>,
  b: Leaf<K, V>,
): Branch<K, V> {
  const fa = (a.hash >>> shift) & MASK;
  const fb = (b.hash >>> shift) & MASK;
  if (fa === fb) return new Branch(1 << fa, [split(shift + BITS, a, b)]);
  return new Branch((1 << fa) | (1 << fb), fa < fb ? [a, b] : [b, a]);
}

/** `node` without `key`: the same node when absent, undefined when nothing is left. */
export function remove<K, V>(
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

export function* leavesOf<K, V>(node: Node<K, V>): Generator<Leaf<K, V>> {
  if (node instanceof Leaf) yield node;
  else if (node instanceof Collision) yield* node.leaves;
  else for (const child of node.children) yield* leavesOf(child);
}

export function sumNode<K, V>(
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

export function sameNode<K, V>(
  a: Node<K, V>,
  b: Node<K, V>,
  same: (a: V, b: V) => boolean,
): boolean {
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

export function popcount(x: number): number {
  let n = x - ((x >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** FNV-1a over a string's UTF-16 code units; an integer key is mixed (murmur3's finaliser). */
export function hashKey(key: Key): number {
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
