/**
 * PostgreSQL mutant: the reference with no lock at all before its reads (no key lock, the row
 * read without FOR UPDATE), trusting READ COMMITTED. Two racing first attempts both miss the
 * receipt; the second's versioned update then waits for the first to commit and matches no row,
 * so a retry racing its original gets a conflict instead of its replay.
 */
import { REFERENCE_STEPS, stepsHandler, unlockedAccess } from '../set-interval-pg-steps.ts';

export default stepsHandler(
  'pg-check-then-act',
  'Reads access and the receipt under READ COMMITTED with no lock taken (no key lock, no FOR UPDATE), so two racing first attempts both miss the receipt.',
  { ...REFERENCE_STEPS, async lockKey() {}, canAccess: unlockedAccess },
);
