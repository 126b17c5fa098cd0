/**
 * What the bundled PostgreSQL handlers share around their statements: the transaction that turns a
 * failing receipt store into `error`, how that failure is recognised, and the text a receipt key's
 * advisory lock is taken on.
 */
import { type Outcome, outcome } from '../../model/outcome.ts';
import { TOOL } from '../../model/world.ts';
import type { PgConnection } from './plugin.ts';

/**
 * Runs `body` in a transaction: commits what it returns, rolls back on a throw. Integrity
 * failures (SQLSTATE class 23: what a failing receipt store raises) become `error`.
 */
export async function inPostgresTransaction(
  db: PgConnection,
  body: () => Promise<Outcome>,
  begin = 'BEGIN',
): Promise<Outcome> {
  await db.query(begin);
  try {
    const result = await body();
    await db.query('COMMIT');
    return result;
  } catch (thrown) {
    await db.query('ROLLBACK');
    if (isIntegrityFailure(thrown)) return outcome.error((thrown as Error).message);
    throw thrown;
  }
}

/** A PostgreSQL integrity failure (SQLSTATE class 23): a constraint, or the failure trigger. */
export function isIntegrityFailure(thrown: unknown): boolean {
  const code = (thrown as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('23');
}

/** The text an advisory lock is taken on: the receipt key as JSON (text may hold no NUL byte). */
export function keyLockText(workspace: string, user: string, requestId: string): string {
  return JSON.stringify([workspace, user, TOOL, requestId]);
}
