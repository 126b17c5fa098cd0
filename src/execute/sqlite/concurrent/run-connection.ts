/**
 * A connection object of one run's own over a connection a worker keeps across runs.
 *
 * Concurrent mode resets one database file in place between runs, and each worker keeps its
 * connection to it open (opening one and loading the schema cost more than a short run). A
 * plugin that keeps state per connection object (a wrapped library's instance in a `WeakMap`
 * keyed by the connection: `node-idempotency`, Powertools, the Express adapter) would then
 * carry that state from one run into the next, which a fresh database per run never allowed.
 * Such a plugin is given a new object per run instead: a proxy whose every method runs on the
 * kept connection, so SQLite sees one warm connection and the plugin a new one. A plugin that
 * declares itself `replayable` keeps nothing between calls by contract and gets the kept
 * connection itself. The bundled handlers' prepared statements are shared either way
 * (`STANDS_FOR`): they hold nothing from one run to the next.
 */
import type { Connection } from '../../../handlers/plugin.ts';
import { STANDS_FOR } from '../../../handlers/sqlite/statement-cache.ts';

/**
 * A new object standing for `db`: property reads and writes go to `db`, methods run bound to it
 * (better-sqlite3's methods need the real object as `this`), `instanceof` still holds.
 */
export function runConnection(db: Connection): Connection {
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(db, {
    get(target, key) {
      if (key === STANDS_FOR) return target;
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      let method = bound.get(key);
      if (method === undefined) {
        method = (value as (...args: unknown[]) => unknown).bind(target);
        bound.set(key, method);
      }
      return method;
    },
    set(target, key, value) {
      return Reflect.set(target, key, value, target);
    },
  });
}
