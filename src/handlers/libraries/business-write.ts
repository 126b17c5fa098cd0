/**
 * The business function both library plugins wrap: the article's versioned `set_interval` row
 * update, written the way an application behind an idempotency library writes it. It knows
 * nothing about keys or receipts: it checks current access and the expected version in one
 * `BEGIN IMMEDIATE` transaction, updates the row, and returns the receipt document the library
 * stores as its response. A refusal is thrown, as application code throws domain errors.
 */
import type { RefusalReason } from '../../model/outcome.ts';
import { type Principal, type Receipt, TOOL } from '../../model/world.ts';
import {
  referenceSteps,
  type ValidRequest,
} from '../operations/set-interval/sqlite/set-interval-steps.ts';
import type { Connection } from '../plugin.ts';

/**
 * A refusal by the business function: the target is unavailable, or the operation's precondition
 * fails (`conflict` for a stale version, `insufficient` for a balance).
 */
export class Refusal extends Error {
  readonly reason: Exclude<RefusalReason, 'forbidden'>;

  constructor(reason: Exclude<RefusalReason, 'forbidden'>) {
    super(`refused: ${reason}`);
    this.name = 'Refusal';
    this.reason = reason;
  }
}

/**
 * Contract rules 6, 8 and 9 for a validated request, in one immediate transaction: the row must
 * be in the principal's workspace (else `Refusal('unavailable')`) and at the expected version
 * (else `Refusal('conflict')`). Returns the receipt document: the request's key and canonical
 * payload with the row as written, which is what a replay must hand back and what the snapshot
 * reads. Anything else the database throws rolls back and escapes.
 */
export function setIntervalWrite(
  db: Connection,
  principal: Pick<Principal, 'workspace' | 'user'>,
  r: ValidRequest,
): Receipt {
  const write = db.transaction((): Receipt => {
    if (!referenceSteps.canAccess(db, principal, r)) throw new Refusal('unavailable');
    const result = referenceSteps.updateRow(db, principal, r);
    if (!result) throw new Refusal('conflict');
    return {
      workspace: principal.workspace,
      user: principal.user,
      tool: TOOL,
      requestId: r.requestId,
      payload: { id: r.automationId, version: r.expectedVersion, interval: r.intervalMinutes },
      result,
    };
  });
  return write.immediate();
}

/** Whether a stored response is a receipt document as `setIntervalWrite` returns it. */
export function isReceiptDocument(value: unknown): value is Receipt {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  const p = r.payload as Record<string, unknown> | undefined;
  const x = r.result as Record<string, unknown> | undefined;
  return (
    typeof r.workspace === 'string' &&
    typeof r.user === 'string' &&
    typeof r.tool === 'string' &&
    typeof r.requestId === 'string' &&
    Number.isInteger(p?.id) &&
    Number.isInteger(p?.version) &&
    Number.isInteger(p?.interval) &&
    Number.isInteger(x?.id) &&
    Number.isInteger(x?.intervalMinutes) &&
    Number.isInteger(x?.version)
  );
}
