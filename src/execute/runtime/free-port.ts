/**
 * A free TCP port on 127.0.0.1, for a process the harness starts and then connects to (an HTTP
 * or MCP service, the embedded PostgreSQL server): the OS picks one, the harness lets it go and
 * hands its number to the process.
 */
import { createServer } from 'node:net';

/** A port nothing listens on right now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
