/**
 * The environment variable naming a PostgreSQL server, apart from the server's module (which
 * loads the PostgreSQL client): options and help read it on every start.
 */

/** The environment variable that names an existing server, as `--database-url` does. */
export const DATABASE_URL_ENV = 'RECEIPTCHECK_DATABASE_URL';
