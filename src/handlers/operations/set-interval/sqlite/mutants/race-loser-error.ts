/**
 * Mutant: a deferred `BEGIN` takes the write lock only at the first write, and a catch-all maps
 * every database error to an `error` outcome. Alone, it behaves like the reference; when two
 * calls overlap, the later one cannot upgrade its read to a write and gets SQLITE_BUSY, which
 * it answers with an internal error instead of waiting and replaying, conflicting or reporting
 * key reuse. Real-world class: a race loser surfacing a 500 (lock or unique-violation errors
 * not handled as the duplicate they are).
 */
import { messageOf } from '../../../../../errors.ts';
import { outcome } from '../../../../../model/outcome.ts';
import { defineStepMutant } from './define-step-mutant.ts';

/** The reference, except for a deferred transaction whose lock errors become `error`. */
export default defineStepMutant({
  name: 'race-loser-error',
  description:
    'Uses a deferred BEGIN and maps every database error to `error`, so the loser of a race reports an internal error.',
  // The bug: a deferred BEGIN, and every database error (the race loser's lock error too) is `error`.
  style: () => ({ begin: 'BEGIN', onError: (thrown) => outcome.error(messageOf(thrown)) }),
});
