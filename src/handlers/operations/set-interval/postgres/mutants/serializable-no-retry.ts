/**
 * PostgreSQL mutant: the reference's locks traded for SERIALIZABLE isolation, without the retry
 * loop SERIALIZABLE needs. When two calls race on one row, PostgreSQL aborts one with a
 * serialization failure (SQLSTATE 40001), and the handler lets it escape.
 */
import { REFERENCE_STEPS, stepsHandler, unlockedAccess } from '../set-interval-pg-steps.ts';

export default stepsHandler(
  'pg-serializable-no-retry',
  'Runs under SERIALIZABLE with no lock and no retry, so the serialization failure (40001) of a racing call escapes as an unexpected error.',
  {
    ...REFERENCE_STEPS,
    begin: 'BEGIN ISOLATION LEVEL SERIALIZABLE',
    async lockKey() {},
    canAccess: unlockedAccess,
  },
);
