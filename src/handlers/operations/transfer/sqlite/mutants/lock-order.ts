/**
 * Mutant (transfer): locks taken as the legs reach them instead of all up front. A deferred
 * `BEGIN` takes a read lock at the first account read and asks for the write lock only at the
 * debit. On PostgreSQL the same habit (each account locked as its leg comes, in the order the
 * call names them) deadlocks two opposite transfers; on SQLite every lock covers the whole
 * database, so any two overlapping transfers deadlock the same way: each holds the read lock the
 * other's write waits on. SQLite does not wait in a deadlock: one of them gets SQLITE_BUSY at
 * once, which the busy timeout does not retry and the plugin lets escape, an unexpected error
 * where the model wants a fresh transfer, a replay or a refusal.
 * Real-world class: lock order left to the request (locks taken leg by leg, a read upgraded to a
 * write), with the deadlock error not handled.
 * Killed by: scheduled mode (two transfers overlap, both reads before either write).
 */
import { deferredBegin } from '../../../../sqlite/bug-shapes.ts';
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { transferParts } from '../transfer-sql.ts';

export default defineOperationMutant(transferParts, {
  name: 'transfer-lock-order',
  description:
    'Locks as the legs go (a deferred BEGIN, the write lock asked for at the debit), so two overlapping transfers deadlock and the SQLITE_BUSY escapes.',
  ...deferredBegin(),
});
