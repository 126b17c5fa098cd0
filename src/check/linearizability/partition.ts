/**
 * Splitting a history into parts that can be checked one by one (porcupine's `partition`).
 *
 * The model's state is a product of independent pieces: each automation row, each receipt key,
 * each principal's scopes, and the store flag. An operation's "footprint" is every piece its
 * outcome or effect can depend on, in any state the search might step it from:
 *
 * - a valid call: its row (every row it names, for an operation that writes several) and its receipt key (principals' users and workspaces never change, so
 *   the key is fixed), plus its principal's scopes if anything revokes or restores them, plus the
 *   store flag if anything fails or restores the store;
 * - a call with invalid arguments: only its principal's scopes (it is refused or rejected before
 *   any read); a lost request: nothing (it is always `notSent`);
 * - revoke/restore: that principal's scopes; move/delete/recreate: that row; storeFail and
 *   storeRestore: the store flag.
 *
 * Operations that share a piece, directly or through others, land in one part (union-find).
 * Parts then touch disjoint pieces, so the model restricted to each is its own object and
 * linearizability is local (Herlihy & Wing): the whole history is linearizable exactly when every
 * part is. A store or scope event therefore pulls in every call it could affect, which is sound
 * but may leave a single part. Operations with an empty footprint form one extra part. An event
 * kind this file does not know makes the whole history one part.
 */
import type { Event } from '../../model/events.ts';
import type { History, HistoryEntry } from '../../model/history.ts';
import type { ModelState } from '../../model/state.ts';
import { invalidField } from '../../model/validate.ts';

/** The parts of a history, each in the history's order; every entry is in exactly one part. */
export function partitionHistory(initial: ModelState, history: History): HistoryEntry[][] {
  // Predicted ids share one counter, so calls on different rows are not independent.
  if (initial.operation.created?.ids === 'rowid') return [[...history]];
  const scopesChange = new Set<number>();
  let storeChanges = false;
  // By index, here and below: a `for…of` or `forEach` run once over a million entries is never
  // optimised, and allocates an iterator result or calls a closure per entry.
  for (let i = 0; i < history.length; i++) {
    const event = (history[i] as HistoryEntry).event;
    if (event.kind === 'revoke' || event.kind === 'restore') scopesChange.add(event.client);
    if (event.kind === 'storeFail' || event.kind === 'storeRestore') storeChanges = true;
  }
  const pieces = createPieces(initial);
  const firstPiece = new Int32Array(history.length).fill(-1);
  for (let i = 0; i < history.length; i++) {
    const event = (history[i] as HistoryEntry).event;
    const piece = joinFootprint(pieces, event, scopesChange, storeChanges, initial);
    if (piece === undefined) return [[...history]];
    firstPiece[i] = piece;
  }

  const parts = new Map<number, HistoryEntry[]>();
  const loose: HistoryEntry[] = [];
  for (let i = 0; i < history.length; i++) {
    const entry = history[i] as HistoryEntry;
    const piece = firstPiece[i] as number;
    if (piece < 0) {
      loose.push(entry);
      continue;
    }
    const root = find(pieces.parent, piece);
    const part = parts.get(root);
    if (part) part.push(entry);
    else parts.set(root, [entry]);
  }
  const result = [...parts.values()];
  if (loose.length > 0) result.push(loose);
  return result;
}

/** Union-find over numbered pieces of state, with the lookups that number them. */
interface Pieces {
  readonly parent: number[];
  readonly rows: Map<number, number>;
  readonly scopes: Map<number, number>;
  /** Receipt keys by request id, per group of principals sharing a user and workspace. */
  readonly keys: Map<string, number>[];
  /** Principal index → index into `keys`. */
  readonly keyGroup: number[];
  store: number;
}

function createPieces(initial: ModelState): Pieces {
  const groups = new Map<string, number>();
  const keyGroup = initial.principals.map((p) => {
    const name = `${p.workspace}\u0000${p.user}`;
    let group = groups.get(name);
    if (group === undefined) {
      group = groups.size;
      groups.set(name, group);
    }
    return group;
  });
  const keys = Array.from({ length: groups.size }, () => new Map<string, number>());
  return { parent: [], rows: new Map(), scopes: new Map(), keys, keyGroup, store: -1 };
}

/**
 * Unions the pieces `event` touches and returns one of them: -1 for an empty footprint,
 * undefined for an event kind this file does not know.
 */
function joinFootprint(
  pieces: Pieces,
  event: Event,
  scopesChange: Set<number>,
  storeChanges: boolean,
  initial: ModelState,
): number | undefined {
  switch (event.kind) {
    case 'call': {
      if (event.delivery === 'lostRequest') return -1;
      const scope = scopesChange.has(event.client)
        ? numbered(pieces, pieces.scopes, event.client)
        : -1;
      const spec = initial.operation;
      if (invalidField(event.request, spec)) return scope;
      const group = pieces.keyGroup[event.client];
      if (group === undefined) {
        throw new RangeError(
          `no principal for client ${event.client}: use a client index into the fixture's principals`,
        );
      }
      const row = numbered(pieces, pieces.rows, event.request[spec.targetField] as number);
      // A call that writes several rows ties them into one piece of state.
      if (spec.otherTargets)
        for (const name of spec.otherTargets)
          union(pieces.parent, row, numbered(pieces, pieces.rows, event.request[name] as number));
      // With the store flag in every valid call's footprint, a receipt key joins the store's
      // part through its row whatever else it touches: numbering keys would change no part, and
      // costs a Map entry per request id (a soak mints one per intent).
      if (!storeChanges) {
        const key = numbered(
          pieces,
          pieces.keys[group] as Map<string, number>,
          event.request.requestId as string,
        );
        union(pieces.parent, row, key);
      }
      if (scope >= 0) union(pieces.parent, row, scope);
      if (storeChanges) union(pieces.parent, row, storePiece(pieces));
      return row;
    }
    case 'revoke':
    case 'restore':
      return numbered(pieces, pieces.scopes, event.client);
    case 'move':
    case 'delete':
    case 'recreate':
      return numbered(pieces, pieces.rows, event.resourceId);
    case 'storeFail':
    case 'storeRestore':
      return storePiece(pieces);
    default:
      return undefined;
  }
}

function numbered<K>(pieces: Pieces, names: Map<K, number>, name: K): number {
  let id = names.get(name);
  if (id === undefined) {
    id = pieces.parent.length;
    pieces.parent.push(id);
    names.set(name, id);
  }
  return id;
}

function storePiece(pieces: Pieces): number {
  if (pieces.store < 0) {
    pieces.store = pieces.parent.length;
    pieces.parent.push(pieces.store);
  }
  return pieces.store;
}

function find(parent: number[], x: number): number {
  let root = x;
  while (parent[root] !== root) root = parent[root] as number;
  while (parent[x] !== root) {
    const up = parent[x] as number;
    parent[x] = root;
    x = up;
  }
  return root;
}

function union(parent: number[], a: number, b: number): void {
  const ra = find(parent, a);
  const rb = find(parent, b);
  if (ra !== rb) parent[rb] = ra;
}
