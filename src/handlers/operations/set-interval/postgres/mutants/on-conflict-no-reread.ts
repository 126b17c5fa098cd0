/**
 * PostgreSQL mutant: the receipt key's unique index as the lock. After the reference's reads
 * and checks (with no lock, the claim stands for one), it claims the key by inserting its receipt first,
 * `INSERT … ON CONFLICT DO NOTHING`, with the result its update will give; then it locks the row
 * and updates it. A second attempt of the key racing the first waits on the claim and, once the
 * first commits, inserts nothing. The bug: the loser takes "nothing inserted" to mean its own
 * request already ran and replays what it would have written, never reading the winner's
 * receipt. A retry of the same request gets the right answer by luck; a mismatched duplicate is
 * replayed instead of refused as key reuse.
 */
import { type Outcome, outcome } from '../../../../../model/outcome.ts';
import type { CallResult } from '../../../../../model/world.ts';
import { definePostgresHandler, type PgConnection } from '../../../../postgres/plugin.ts';
import { isIntegrityFailure } from '../../../../postgres/transaction.ts';
import { precheck } from '../../sqlite/set-interval-reference.ts';
import {
  type Caller,
  keyOf,
  payloadOf,
  type ValidRequest,
} from '../../sqlite/set-interval-steps.ts';
import { resultText } from '../../sqlite/set-interval-world.ts';
import { REFERENCE_STEPS, readReceipt } from '../set-interval-pg-steps.ts';
import { postgresSetIntervalWorld } from '../set-interval-pg-world.ts';

async function claimFirst(db: PgConnection, principal: Caller, r: ValidRequest): Promise<Outcome> {
  // Rules 6–8 read without a lock (the claim stands for one), so a failing store still refuses first.
  const current = await db.query<{ version: number }>(
    'SELECT version FROM automations WHERE id = $1::bigint AND workspace_id = $2',
    [r.automationId, principal.workspace],
  );
  const version = current.rows[0]?.version;
  if (version === undefined) return outcome.refused('unavailable');
  const stored = await readReceipt(db, principal, r);
  if (stored) return stored;
  if (version !== r.expectedVersion) return outcome.refused('conflict');
  const planned: CallResult = {
    id: r.automationId,
    intervalMinutes: r.intervalMinutes,
    version: r.expectedVersion + 1,
  };
  const claim = await db.query(
    'INSERT INTO receipts VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING',
    [
      ...keyOf(principal, r),
      payloadOf(r),
      resultText(planned.id, planned.intervalMinutes, planned.version),
    ],
  );
  // The bug: the right answer reads the winner's receipt here (readReceipt) and returns that.
  if (claim.rowCount === 0) return outcome.replayed(planned);
  if (!(await REFERENCE_STEPS.canAccess(db, principal, r))) throw refusal('unavailable');
  const row = await REFERENCE_STEPS.updateRow(db, principal, r);
  if ('kind' in row) throw refusal('conflict');
  return outcome.fresh(row);
}

/** A refusal after the claim: the claim must go, so the transaction rolls back. */
class Refusal extends Error {
  constructor(readonly answer: Outcome) {
    super('refused after the claim');
  }
}
const refusal = (reason: 'unavailable' | 'conflict') => new Refusal(outcome.refused(reason));

export default definePostgresHandler({
  name: 'pg-on-conflict-no-reread',
  description:
    "Claims the key with INSERT … ON CONFLICT DO NOTHING before its update; a loser that inserts nothing replays what it would have written without reading the winner's receipt.",
  ...postgresSetIntervalWorld,
  async call(db, principal, request) {
    const checked = precheck(principal, request);
    if ('kind' in checked) return checked;
    await db.query('BEGIN');
    try {
      const answer = await claimFirst(db, principal, checked);
      await db.query('COMMIT');
      return answer;
    } catch (thrown) {
      await db.query('ROLLBACK');
      if (thrown instanceof Refusal) return thrown.answer;
      if (isIntegrityFailure(thrown)) return outcome.error((thrown as Error).message);
      throw thrown;
    }
  },
});
