/**
 * The PostgreSQL server a run uses, and the databases it makes there. By default one embedded
 * server per process (`embedded-server.ts`), started on first use and shared by every runner,
 * stopped a moment after the last runner lets it go (or at exit). With a database URL
 * (`--database-url`, or `RECEIPTCHECK_DATABASE_URL`) an existing server is used instead: the
 * harness then creates and drops databases of its own there, named `receiptcheck_<pid>_<n>`,
 * and touches nothing else.
 */
import pg from 'pg';
import { ReceiptcheckError } from '../../errors.ts';
import { keptForNext } from '../runtime/kept-for-next.ts';
import { DATABASE_URL_ENV } from './database-url-env.ts';
import { type EmbeddedServer, startEmbeddedServer } from './embedded-server.ts';

/** How long an embedded server with no users is kept, for the next runner of the same process. */
const LINGER_MS = 2_000;

/** A server to make databases on; `release()` once done with it. */
export interface PostgresServer {
  /** Where the server is, for messages: `embedded PostgreSQL 18.4 on 127.0.0.1:PORT`, or the URL without its password. */
  readonly description: string;
  /** Connection settings for `database` on this server. */
  connectionFor(database: string): pg.ClientConfig;
  /**
   * A new database named after this process, empty or copied from `template`; returns its name.
   * `named` hears the name before the database is made, so that a caller dropping what it made
   * on Ctrl-C knows of a database whose creation was under way (its drop is `IF EXISTS`).
   */
  createDatabase(template?: string, named?: (database: string) => void): Promise<string>;
  /** Drops `database`, ending any connection still open on it. */
  dropDatabase(database: string): Promise<void>;
  /** Lets the server go; the embedded server stops once no runner holds it. */
  release(): Promise<void>;
}

/** This process's embedded server, how many runners hold it, and how it is let go. */
let shared:
  | {
      server: Promise<EmbeddedServer>;
      users: number;
      linger?: NodeJS.Timeout;
      /** Unregisters it from what a finished command stops (`kept-for-next.ts`). */
      unkeep: () => void;
    }
  | undefined;
let created = 0;

/** The server at `databaseUrl` (or the environment's), else this process's embedded one. */
export async function acquirePostgres(
  databaseUrl = process.env[DATABASE_URL_ENV],
): Promise<PostgresServer> {
  if (databaseUrl) return external(databaseUrl);
  // A finished command stops it at once: its process would otherwise live on until it lingers out.
  if (!shared)
    shared = { server: startEmbeddedServer(), users: 0, unkeep: keptForNext(stopEmbeddedPostgres) };
  const entry = shared;
  entry.users++;
  clearTimeout(entry.linger);
  let embedded: EmbeddedServer;
  try {
    embedded = await entry.server;
  } catch (thrown) {
    if (shared === entry) shared = undefined;
    entry.unkeep();
    throw thrown;
  }
  const base: pg.ClientConfig = {
    host: embedded.host,
    port: embedded.port,
    user: embedded.user,
    password: embedded.password,
  };
  let released = false;
  return server(
    `embedded PostgreSQL ${embedded.version} on ${embedded.host}:${embedded.port}`,
    base,
    async () => {
      if (released) return;
      released = true;
      entry.users--;
      if (entry.users > 0) return;
      entry.linger = setTimeout(() => {
        if (shared === entry) shared = undefined;
        entry.unkeep();
        void embedded.stop();
      }, LINGER_MS);
      entry.linger.unref();
    },
  );
}

/** Stops this process's embedded server now, if one runs (for tests and a clean exit). */
export async function stopEmbeddedPostgres(): Promise<void> {
  const entry = shared;
  shared = undefined;
  if (!entry) return;
  clearTimeout(entry.linger);
  entry.unkeep();
  await (await entry.server.catch(() => undefined))?.stop();
}

function external(url: string): PostgresServer {
  let base: pg.ClientConfig;
  try {
    const parsed = new URL(url);
    if (!/^postgres(ql)?:$/.test(parsed.protocol)) throw new Error('not a postgres:// URL');
    base = { connectionString: url };
    parsed.password = parsed.password ? '***' : '';
    return server(`PostgreSQL at ${parsed.toString()}`, base, async () => {});
  } catch (thrown) {
    throw new ReceiptcheckError(
      'E_BAD_OPTION',
      `--database-url "${url}" is not a PostgreSQL URL (${(thrown as Error).message}); expected postgres://user:password@host:port/database`,
    );
  }
}

function server(
  description: string,
  base: pg.ClientConfig,
  release: () => Promise<void>,
): PostgresServer {
  const connectionFor = (database: string): pg.ClientConfig =>
    base.connectionString
      ? { connectionString: withDatabase(base.connectionString, database) }
      : { ...base, database };
  /** Databases whose `CREATE DATABASE` is under way, by name. */
  const creating = new Map<string, Promise<unknown>>();
  const admin = async <T>(sql: string): Promise<T> => {
    const client = new pg.Client(
      base.connectionString
        ? { connectionString: base.connectionString }
        : { ...base, database: 'postgres' },
    );
    // As the setup's client: a server stopped by Ctrl-C must not end the process as a crash.
    client.on('error', () => {});
    try {
      await client.connect();
    } catch (thrown) {
      throw new ReceiptcheckError(
        'E_POSTGRES',
        `cannot connect to ${description}: ${(thrown as Error).message}`,
      );
    }
    try {
      return (await client.query(sql)) as T;
    } finally {
      await client.end();
    }
  };
  return {
    description,
    connectionFor,
    async createDatabase(template, named) {
      const name = `receiptcheck_${process.pid}_${++created}`;
      const made = admin(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
      creating.set(
        name,
        made.catch(() => {}),
      );
      named?.(name);
      try {
        await made;
      } catch (thrown) {
        // insufficient_privilege: the role cannot make the databases every run needs.
        if ((thrown as { code?: unknown }).code === '42501')
          throw new ReceiptcheckError(
            'E_POSTGRES',
            `the role on ${description} may not create databases (${(thrown as Error).message}); receiptcheck makes one per run from a template: give the role CREATEDB (ALTER ROLE … CREATEDB), or use one that has it`,
          );
        throw thrown;
      } finally {
        creating.delete(name);
      }
      return name;
    },
    async dropDatabase(database) {
      // A drop of a database still being made (Ctrl-C mid-create) waits for it, or finds nothing.
      await creating.get(database);
      await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    },
    release,
  };
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
