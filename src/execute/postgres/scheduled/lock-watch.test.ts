/**
 * Which statements may take a session-level lock: after one, every statement of the run is
 * watched as one that may be waiting from its first moment (`ASK_FIRST_MS`).
 */
import { describe, expect, it } from 'vitest';
import { takesSessionLock } from './lock-watch.ts';

describe('takesSessionLock', () => {
  it('sees the session-level advisory lock functions, in any case and spacing', () => {
    for (const sql of [
      'SELECT pg_advisory_lock(hashtext($1))',
      'select PG_ADVISORY_LOCK (1, 2)',
      'SELECT pg_try_advisory_lock($1)',
      'SELECT pg_advisory_lock_shared(7)',
      'SELECT pg_try_advisory_lock_shared(7)',
    ])
      expect(takesSessionLock(sql), sql).toBe(true);
  });

  it('passes over transaction-level locks and unlocks, which end with the transaction', () => {
    for (const sql of [
      'SELECT pg_advisory_xact_lock(hashtext($1))',
      'SELECT pg_try_advisory_xact_lock_shared(1)',
      'SELECT pg_advisory_unlock(hashtext($1))',
      'SELECT pg_advisory_unlock_all()',
      'SELECT 1 FROM automations WHERE id = $1 FOR UPDATE',
    ])
      expect(takesSessionLock(sql), sql).toBe(false);
  });
});
