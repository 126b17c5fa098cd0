/**
 * Test-only: a handler that looks correct but stores a conflict refusal in its receipts table
 * and replays it, as libraries that keep every response do, without declaring
 * `policy.storesRefusals`. Its snapshot reads the table as it is, as the README's plugin does, so
 * a receipt's result is whatever the handler stored. That row is the handler's behaviour, not a
 * malformed snapshot: it must come back as a counterexample that names the call which wrote it.
 */

import { precheck } from '../../../src/handlers/operations/set-interval/sqlite/set-interval-reference.ts';
import {
  keyOf,
  payloadOf,
  referenceSteps,
  type ValidRequest,
} from '../../../src/handlers/operations/set-interval/sqlite/set-interval-steps.ts';
import { sqliteWorld } from '../../../src/handlers/operations/set-interval/sqlite/set-interval-world.ts';
import { type Connection, defineHandler } from '../../../src/handlers/plugin.ts';
import { cachedStatement } from '../../../src/handlers/sqlite/statement-cache.ts';
import { inImmediateTransaction } from '../../../src/handlers/sqlite/transaction.ts';
import { type Outcome, outcome } from '../../../src/model/outcome.ts';
import type { Principal, Receipt, Snapshot } from '../../../src/model/world.ts';

/** What it stores as a receipt's response: the whole answer, a refusal as well as a result. */
type Stored =
  | { kind: 'ok'; result: { id: number; intervalMinutes: number; version: number } }
  | { kind: 'refused'; reason: 'conflict' };

function store(db: Connection, principal: Principal, r: ValidRequest, answer: Stored): void {
  cachedStatement(db, 'INSERT INTO receipts VALUES (?, ?, ?, ?, ?, ?)').run(
    ...keyOf(principal, r),
    payloadOf(r),
    JSON.stringify(answer),
  );
}

export default defineHandler({
  ...sqliteWorld,
  name: 'stores-refusals',
  description:
    'Stores a conflict refusal under the key and replays it (storesRefusals undeclared).',
  replayable: true,
  call(db, principal, request): Outcome {
    const r = precheck(principal, request);
    if ('kind' in r) return r;
    return inImmediateTransaction(db, () => {
      if (!referenceSteps.canAccess(db, principal, r)) return outcome.refused('unavailable');
      const stored = referenceSteps.findReceipt(db, principal, r);
      if (stored) {
        if (stored.payload !== payloadOf(r)) return outcome.keyReuse();
        const answer = JSON.parse(stored.response) as Stored;
        return answer.kind === 'ok'
          ? outcome.replayed(answer.result)
          : outcome.refused(answer.reason);
      }
      const result = referenceSteps.updateRow(db, principal, r);
      if (!result) {
        store(db, principal, r, { kind: 'refused', reason: 'conflict' });
        return outcome.refused('conflict');
      }
      store(db, principal, r, { kind: 'ok', result });
      return outcome.fresh(result);
    });
  },
  snapshot(db): Snapshot {
    const { automations } = sqliteWorld.snapshot(db);
    const rows = cachedStatement(db, 'SELECT * FROM receipts').all() as Record<string, string>[];
    const receipts: Receipt[] = rows.map((row) => {
      const answer = JSON.parse(row.response as string) as Stored;
      return {
        workspace: row.workspace_id as string,
        user: row.user_id as string,
        tool: row.tool as string,
        requestId: row.request_id as string,
        payload: JSON.parse(row.payload as string),
        // A result as stored: a refusal stays a refusal.
        result: answer.kind === 'ok' ? answer.result : answer,
      };
    });
    return { automations, receipts };
  },
});
