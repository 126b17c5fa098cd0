/**
 * Where the run database is, taken apart from the session's connection settings, so that a
 * service and the harness's world connections can be pointed at the proxy instead: the same
 * user, password and database, at the proxy's host and port. Pure.
 */
import type pg from 'pg';

/** The server and the run database, as the proxy and its clients need them. */
export interface Upstream {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly database: string;
}

/** Where something listens: the proxy. */
export interface Address {
  readonly host: string;
  readonly port: number;
}

/** The upstream of `config` (a `connectionString`, or its parts; PostgreSQL's defaults for the rest). */
export function upstreamOf(config: pg.ClientConfig): Upstream {
  if (config.connectionString) {
    const url = new URL(config.connectionString);
    return {
      host: url.hostname || 'localhost',
      port: url.port ? Number(url.port) : 5432,
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: decodeURIComponent(url.pathname.replace(/^\//, '')),
    };
  }
  return {
    host: config.host ?? 'localhost',
    port: config.port ?? 5432,
    user: config.user ?? '',
    password: typeof config.password === 'string' ? config.password : '',
    database: config.database ?? '',
  };
}

/** `pg` settings for a connection to `u`'s database through `at`. */
export function proxiedConfig(u: Upstream, at: Address): pg.ClientConfig {
  return { host: at.host, port: at.port, user: u.user, password: u.password, database: u.database };
}
