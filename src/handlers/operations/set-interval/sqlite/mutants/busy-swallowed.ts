/**
 * Mutant: a deferred `BEGIN`, and a catch that swallows SQLITE_BUSY (any variant) as if the lock
 * error meant "another attempt is writing this already": it rolls back and answers a fresh `ok`
 * with the row it meant to write. One call at a time it behaves exactly like the reference. When
 * two calls overlap, the one that cannot upgrade its read to a write reports a success that never
 * committed: a duplicate answers `fresh` where the contract wants a replay, a mismatched one `ok`
 * where it wants `keyReuse`, and no receipt backs it. Real-world class: lock and serialization
 * errors caught by a generic retry-or-succeed wrapper. Only an interleaving at statement level
 * can catch it (scheduled mode; concurrent mode by luck).
 */
import { outcome } from '../../../../../model/outcome.ts';
import { mapWriteFailure } from '../../../../sqlite/transaction.ts';
import { defineStepMutant } from './define-step-mutant.ts';

/** Whether `thrown` is SQLITE_BUSY or one of its extended codes (e.g. SQLITE_BUSY_SNAPSHOT). */
function isBusy(thrown: unknown): boolean {
  const code = (thrown as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

export default defineStepMutant({
  name: 'busy-swallowed',
  description:
    'Uses a deferred BEGIN and answers SQLITE_BUSY with a fresh ok, so a race loser reports a success that never committed.',
  style: (r) => ({
    begin: 'BEGIN',
    // The bug: a lock error is taken for success.
    onError: (thrown) =>
      isBusy(thrown)
        ? outcome.fresh({
            id: r.automationId,
            intervalMinutes: r.intervalMinutes,
            version: r.expectedVersion + 1,
          })
        : mapWriteFailure(thrown),
  }),
});
