/**
 * Vitest global setup: one PostgreSQL server for the whole test run, rather than one per test
 * file. It runs in vitest's main process before any worker starts, and hands the server's URL
 * to the test files (`provide`); `vitest.setup.ts` puts it in `RECEIPTCHECK_DATABASE_URL`, so
 * every runner, and every `receiptcheck` command a test starts, makes its databases there as it
 * would on a user's `--database-url` server. Tests about the embedded server itself (start,
 * stop, Ctrl-C, leftovers) still start their own with `acquirePostgres('')`.
 *
 * A URL already in `RECEIPTCHECK_DATABASE_URL` (a CI service container) is used as it is.
 * The server is stopped and its files removed in teardown, or at exit if vitest is stopped.
 */
import type { TestProject } from 'vitest/node';
import { DATABASE_URL_ENV } from '../src/execute/postgres/database-url-env.ts';
import { startEmbeddedServer } from '../src/execute/postgres/embedded-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test run's PostgreSQL server, as a `postgres://` URL. */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env[DATABASE_URL_ENV];
  if (given) {
    project.provide('postgresUrl', given);
    return async () => {};
  }
  const server = await startEmbeddedServer();
  project.provide(
    'postgresUrl',
    `postgres://${server.user}:${server.password}@${server.host}:${server.port}/postgres`,
  );
  return () => server.stop();
}
