/**
 * Bugs that take the same shape in every operation, written once: each returns the changes
 * (`CallChanges`) that carry the bug into an operation's reference. An operation's mutant file
 * names the bug, says how it shows for that operation and which mode kills it, and applies one
 * shape; bugs that only make sense for one operation live in that operation's `mutants/`.
 */
import type { Result } from '../../model/operation.ts';
import { outcome } from '../../model/outcome.ts';
import type { CallChanges } from './operation-handler.ts';
import {
  type OperationSql,
  type OperationSteps,
  runOperationSteps,
  type StoredReceipt,
  type ValidCall,
} from './operation-steps.ts';
import { canonicalText } from './receipt-store.ts';
import { cachedStatement } from './statement-cache.ts';
import { inImmediateTransaction, isWriteFailure } from './transaction.ts';

/** The receipt lookup leaves `column` out of the key. */
function lookupWithout<R extends ValidCall>(
  op: OperationSql<R>,
  column: 'user_id' | 'workspace_id',
): CallChanges<R> {
  const kept = column === 'user_id' ? 'workspace_id' : 'user_id';
  return {
    steps: {
      findReceipt(db, caller, r) {
        return cachedStatement(
          db,
          `SELECT payload, response FROM receipts WHERE ${kept} = ? AND tool = ? AND request_id = ?`,
        ).get(column === 'user_id' ? caller.workspace : caller.user, op.spec.tool, r.requestId) as
          | StoredReceipt
          | undefined;
      },
    },
  };
}

/** Receipts looked up by workspace, tool and request id: users of a workspace share keys. */
export function lookupWithoutUser<R extends ValidCall>(op: OperationSql<R>): CallChanges<R> {
  return lookupWithout(op, 'user_id');
}

/** Receipts looked up by user, tool and request id: a user's workspaces share keys. */
export function lookupWithoutWorkspace<R extends ValidCall>(op: OperationSql<R>): CallChanges<R> {
  return lookupWithout(op, 'workspace_id');
}

/** A failing receipt insert is ignored and the effect commits without its receipt. */
export function swallowReceiptError<R extends ValidCall>(
  reference: OperationSteps<R>,
): CallChanges<R> {
  return {
    steps: {
      insertReceipt(db, caller, r, result) {
        try {
          reference.insertReceipt(db, caller, r, result);
        } catch (thrown) {
          if (!isWriteFailure(thrown)) throw thrown;
        }
      },
    },
  };
}

/** A replay is answered as fresh (`replayed: false`). */
export function replayUnflagged<R extends ValidCall>(reference: OperationSteps<R>): CallChanges<R> {
  return {
    steps: {
      answerReceipt(db, stored, r) {
        const answer = reference.answerReceipt(db, stored, r);
        return answer.kind === 'ok' ? outcome.fresh(answer.result) : answer;
      },
    },
  };
}

/** The receipt answers before current access is checked. */
export function receiptBeforeAccess<R extends ValidCall>(): CallChanges<R> {
  return {
    body(db, caller, r, steps) {
      const stored = steps.findReceipt(db, caller, r);
      if (stored) return steps.answerReceipt(db, stored, r);
      return runOperationSteps(db, caller, r, steps);
    },
  };
}

/**
 * The effect runs before the receipt lookup, and a found receipt answers without undoing it:
 * the receipt is consulted as a log, not as a guard.
 */
export function effectBeforeReceipt<R extends ValidCall>(): CallChanges<R> {
  return {
    body(db, caller, r, steps) {
      if (!steps.canAccess(db, caller, r)) return outcome.refused('unavailable');
      const refusal = steps.checkPrecondition(db, caller, r);
      if (refusal) return outcome.refused(refusal);
      const result = steps.applyEffect(db, caller, r);
      const stored = steps.findReceipt(db, caller, r);
      if (stored) return steps.answerReceipt(db, stored, r);
      steps.insertReceipt(db, caller, r, result);
      return outcome.fresh(result);
    },
  };
}

/** The effect commits in one transaction; the receipt is inserted after, on its own. */
export function receiptAfterCommit<R extends ValidCall>(
  reference: OperationSteps<R>,
): CallChanges<R> {
  return {
    call(db, caller, r, steps) {
      const withoutReceipt = { ...steps, insertReceipt() {} };
      const answer = inImmediateTransaction(db, () =>
        runOperationSteps(db, caller, r, withoutReceipt),
      );
      if (answer.kind !== 'ok' || answer.replayed) return answer;
      try {
        reference.insertReceipt(db, caller, r, answer.result);
      } catch (thrown) {
        if (isWriteFailure(thrown)) return outcome.error((thrown as Error).message);
        throw thrown;
      }
      return answer;
    },
  };
}

/**
 * Access and the receipt are read in autocommit mode, before the write transaction, which no
 * longer re-reads them; the receipt is saved with an upsert, as an idempotency middleware
 * "saves the response" whatever is there.
 */
export function checkThenAct<R extends ValidCall>(op: OperationSql<R>): CallChanges<R> {
  return {
    call(db, caller, r, steps) {
      if (!steps.canAccess(db, caller, r)) return outcome.refused('unavailable');
      const stored = steps.findReceipt(db, caller, r);
      if (stored) return steps.answerReceipt(db, stored, r);
      return inImmediateTransaction(db, () => {
        const refusal = steps.checkPrecondition(db, caller, r);
        if (refusal) return outcome.refused(refusal);
        const result = steps.applyEffect(db, caller, r);
        upsertReceipt(op, db, caller, r, result);
        return outcome.fresh(result);
      });
    },
  };
}

function upsertReceipt<R extends ValidCall>(
  op: OperationSql<R>,
  ...[db, caller, r, result]: Parameters<OperationSteps<R>['insertReceipt']>
): void {
  cachedStatement(db, 'INSERT OR REPLACE INTO receipts VALUES (?, ?, ?, ?, ?, ?)').run(
    caller.workspace,
    caller.user,
    op.spec.tool,
    r.requestId,
    canonicalText(op.payloadOf(r)),
    canonicalText(result as Result),
  );
}

/** A deferred `BEGIN`: the write lock is asked for at the first write, and SQLITE_BUSY escapes. */
export function deferredBegin<R extends ValidCall>(): CallChanges<R> {
  return { style: () => ({ begin: 'BEGIN' }) };
}
