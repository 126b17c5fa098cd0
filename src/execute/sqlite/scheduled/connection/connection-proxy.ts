/**
 * The object a plugin holds as its connection in scheduled mode: a `Proxy` over the real
 * better-sqlite3 connection whose `prepare` hands out proxied statements, whose `exec`, `pragma`,
 * `serialize` and `backup` go through the scheduled connection as yield points, whose
 * `transaction()` is rebuilt on the proxied `exec`, and whose `close` is refused. Everything else
 * passes through, a method returning the real connection returning the proxy instead, so the
 * plugin can never get past it. A virtual `PRAGMA busy_timeout` is kept here (see
 * `scheduled-connection.ts` for why the real one is 0).
 */
import type Database from 'better-sqlite3';
import type { Connection } from '../../../../handlers/plugin.ts';
import {
  busyTimeoutPragma,
  isTransactionControl,
  isWriteText,
} from '../../../schedule/statement-kind.ts';
import { transactionFor } from './proxied-transaction.ts';
import { ScheduledStatement } from './scheduled-statement.ts';
import type { YieldPoints } from './yield-point.ts';

/** What the proxy needs of the scheduled connection it stands for. */
export interface ProxiedConnection extends YieldPoints {
  readonly real: Database.Database;
  /** The handler's own busy timeout, as `PRAGMA busy_timeout` sets and reads it. */
  busyTimeoutMs: number;
  /** Whether a crash grant poisoned the connection (`open` then reads false). */
  readonly crashed: boolean;
}

/** What the scheduler reads off an `exec` text: whether it writes (a fault target), whether it may change rows. */
interface ExecKind {
  readonly write: boolean;
  readonly changesRows: boolean;
}

/**
 * Kinds of the `exec` texts seen so far. A handler execs a handful of texts (BEGIN, COMMIT,
 * ROLLBACK) on every call, and matching them against three patterns each time was about 1% of a
 * scheduled run. Bounded, so a handler that builds its texts cannot grow it without end.
 */
const EXEC_KINDS = new Map<string, ExecKind>();
const EXEC_KINDS_MAX = 256;

function execKind(sql: string): ExecKind {
  const known = EXEC_KINDS.get(sql);
  if (known) return known;
  const control = isTransactionControl(sql);
  // `exec` runs a whole script: only a lone transaction statement surely changes no rows.
  const kind = { write: !control && isWriteText(sql), changesRows: !control || sql.includes(';') };
  if (EXEC_KINDS.size < EXEC_KINDS_MAX) EXEC_KINDS.set(sql, kind);
  return kind;
}

/** The connection object a plugin is given over `conn`. */
export function connectionProxy(conn: ProxiedConnection): Connection {
  const real = conn.real;
  let proxy: Connection;
  const passThrough =
    (fn: (...a: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      const value = fn.apply(real, args);
      return value === real ? proxy : value;
    };
  const own: Record<string, unknown> = {
    prepare(sql: string) {
      return new ScheduledStatement(conn, real.prepare(sql), () => proxy);
    },
    exec(sql: string) {
      const kind = execKind(sql);
      conn.execute(sql, kind.write, () => real.exec(sql), undefined, kind.changesRows);
      return proxy;
    },
    pragma(source: string, options?: { simple?: boolean }) {
      const busy = busyTimeoutPragma(source);
      if (busy) {
        if (busy.set !== undefined) conn.busyTimeoutMs = busy.set;
        return options?.simple ? conn.busyTimeoutMs : [{ timeout: conn.busyTimeoutMs }];
      }
      return conn.execute(`PRAGMA ${source}`, false, () => real.pragma(source, options));
    },
    serialize(options?: Database.SerializeOptions) {
      return conn.execute('serialize()', false, () => real.serialize(options));
    },
    backup(destination: string, options?: Database.BackupOptions) {
      return conn.execute('backup()', false, () => real.backup(destination, options));
    },
    transaction(fn: (...a: unknown[]) => unknown) {
      return transactionFor(conn, () => proxy, fn);
    },
    close() {
      throw new TypeError('receiptcheck owns this connection; a handler must not close it');
    },
  };
  proxy = new Proxy(real, {
    get(target, prop) {
      if (typeof prop === 'string' && Object.hasOwn(own, prop)) return own[prop];
      if (prop === 'inTransaction') return conn.inTransactionNow();
      if (conn.crashed && prop === 'open') return false;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? passThrough(value) : value;
    },
  });
  return proxy;
}
