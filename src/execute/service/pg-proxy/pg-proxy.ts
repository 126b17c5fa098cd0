/**
 * A PostgreSQL wire-protocol proxy, so that a service in any language, in its own process, can
 * be run under the harness's scheduler: the service is given the proxy's address instead of the
 * server's, and every statement it sends becomes a point where the owner decides who goes next.
 * Each client connection gets its own connection to the server; the owner hears each statement
 * before it reaches the server (and may hold it there), hears when its answer came (with the
 * transaction status), and knows each connection's backend pid, which is what the scheduler's lock
 * watch names. The proxy listens on 127.0.0.1 only, plain TCP: it declines SSL, and leaves
 * authentication to the client and the server.
 */
import net from 'node:net';
import { ProxyConnection } from './proxy-connection.ts';
import type { ProxyHooks } from './proxy-hooks.ts';

/** The default for `connectTimeoutMs`: how long reaching the server may take, per connection. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** Where the proxy forwards to, and who it tells. */
export interface PgProxyOptions {
  /** The PostgreSQL server's host and port. */
  readonly upstreamHost: string;
  readonly upstreamPort: number;
  readonly hooks: ProxyHooks;
  /** How long one connection to the server may take to open; default `CONNECT_TIMEOUT_MS`. */
  readonly connectTimeoutMs?: number;
}

/** A listening proxy. `close()` ends it and every connection through it. */
export interface PgProxy {
  readonly host: string;
  readonly port: number;
  /** How many client connections are open through it now. */
  openConnections(): number;
  /** Stops listening and closes every connection, both sides; resolves once all are closed. */
  close(): Promise<void>;
}

/** Starts a proxy on a free port of 127.0.0.1. */
export async function startPgProxy(options: PgProxyOptions): Promise<PgProxy> {
  const upstream = {
    host: options.upstreamHost,
    port: options.upstreamPort,
    connectTimeoutMs: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
  };
  const open = new Set<ProxyConnection>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    const connection = new ProxyConnection(++accepted, socket, upstream, options.hooks);
    open.add(connection);
    void connection.ended.then(() => open.delete(connection));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as net.AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    host: '127.0.0.1',
    port,
    openConnections: () => open.size,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        const connections = [...open];
        for (const connection of connections) connection.close();
        // Destroyed sockets emit 'close' within a few event-loop turns: nothing here waits on the peer.
        await Promise.all([stopped, ...connections.map((c) => c.ended)]);
      })();
      return closing;
    },
  };
}
