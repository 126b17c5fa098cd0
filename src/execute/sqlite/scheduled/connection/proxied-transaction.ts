/**
 * better-sqlite3's `db.transaction(fn)` re-implemented over the proxied `exec`, so that its BEGIN,
 * COMMIT, ROLLBACK and savepoints are yield points like any statement. Same semantics as the
 * library's: nesting by savepoints, `.deferred`/`.immediate`/`.exclusive` variants, a function
 * returning a promise refused.
 */
import type { Connection } from '../../../../handlers/plugin.ts';
import type { YieldPoints } from './yield-point.ts';

const SAVEPOINT = '`\t_bs3.\t`';

/** The transaction function for `fn` on the proxied connection `proxy()`. */
export function transactionFor(
  conn: YieldPoints,
  proxy: () => Connection,
  fn: (...a: unknown[]) => unknown,
): unknown {
  if (typeof fn !== 'function') throw new TypeError('Expected first argument to be a function');
  const exec = (sql: string) => proxy().exec(sql);
  const wrap = (begin: string) =>
    function sqliteTransaction(this: unknown, ...args: unknown[]): unknown {
      const nested = proxy().inTransaction;
      const [before, after, undo] = nested
        ? [`SAVEPOINT ${SAVEPOINT}`, `RELEASE ${SAVEPOINT}`, `ROLLBACK TO ${SAVEPOINT}`]
        : [begin, 'COMMIT', 'ROLLBACK'];
      exec(before);
      try {
        const result = fn.apply(this, args);
        if (result && typeof (result as { then?: unknown }).then === 'function')
          throw new TypeError('Transaction function cannot return a promise');
        exec(after);
        return result;
      } catch (thrown) {
        if (conn.inTransactionNow()) {
          exec(undo);
          if (nested) exec(after);
        }
        throw thrown;
      }
    };
  const variants = {
    default: wrap('BEGIN'),
    deferred: wrap('BEGIN DEFERRED'),
    immediate: wrap('BEGIN IMMEDIATE'),
    exclusive: wrap('BEGIN EXCLUSIVE'),
  };
  const properties = {
    default: { value: variants.default },
    deferred: { value: variants.deferred },
    immediate: { value: variants.immediate },
    exclusive: { value: variants.exclusive },
    database: { value: proxy(), enumerable: true },
  };
  for (const v of Object.values(variants)) Object.defineProperties(v, properties);
  return variants.default;
}
