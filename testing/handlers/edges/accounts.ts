/**
 * An `adjust-balance` handler on SQLite as a user writes one from the README: scope, validation,
 * then one `BEGIN IMMEDIATE` transaction (the account in the caller's workspace, the receipt, the
 * overdraft rule, the update and the receipt together). Each bug is how such handlers really go
 * wrong at an edge: the overdraft rule off by one at zero, the rule checked on a balance read
 * before the write transaction, or the answer re-read after COMMIT (an ORM's refresh).
 */
import {
  adjustBalanceSpec,
  type Connection,
  defineOperationHandler,
  outcome,
  type Row,
  targetRows,
} from '../../../src/index.ts';
import {
  inTransaction,
  isId,
  isRequestId,
  RECEIPTS_SQL,
  readReceipts,
  receiptStore,
  storedReceipt,
  storeReceipt,
} from './sqlite-kit.ts';

const SCHEMA = `
  CREATE TABLE accounts (
    id INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL, balance INTEGER NOT NULL);
  ${RECEIPTS_SQL}`;

const TOOL = 'adjust_balance.v1';
const DELTA_MAX = 1_000_000;

/** How a handler here goes wrong, if it does. */
export type AccountsBug =
  /** `balance + delta <= 0` is refused: the debit that empties the account is refused. */
  | 'refuses-emptying-debit'
  /** The overdraft rule is checked on a balance read before `BEGIN IMMEDIATE`. */
  | 'stale-overdraft-check'
  /** A fresh answer's balance is read again after COMMIT, so it may show a later call's. */
  | 'refresh-after-commit';

const balanceOf = (db: Connection, id: number) =>
  (db.prepare('SELECT balance FROM accounts WHERE id = ?').get(id) as { balance: number }).balance;

/** The plugin, with `bug` planted when given. */
export function accountsHandler(name: string, bug?: AccountsBug) {
  return defineOperationHandler({
    name,
    operation: adjustBalanceSpec,
    replayable: true, // synchronous, no clock, no state between calls
    setup(db, fixture) {
      db.exec(SCHEMA);
      const insert = db.prepare('INSERT INTO accounts VALUES (?, ?, ?)');
      for (const a of targetRows(fixture, adjustBalanceSpec))
        insert.run(a.id, a.workspace, a.balance);
    },
    call(db, principal, request) {
      if (!principal.scopes.includes('account:write')) return outcome.refused('forbidden');
      const { requestId, accountId, delta } = request;
      if (!isRequestId(requestId)) return outcome.invalid('requestId');
      if (!isId(accountId)) return outcome.invalid('accountId');
      if (!Number.isSafeInteger(delta) || delta === 0 || Math.abs(delta as number) > DELTA_MAX)
        return outcome.invalid('delta');
      const amount = delta as number;
      const key = [principal.workspace, principal.user, TOOL, requestId];
      const payload = JSON.stringify({ account: accountId, delta: amount });
      const exists = db.prepare('SELECT 1 FROM accounts WHERE id = ?').get(accountId);
      const early = bug === 'stale-overdraft-check' && exists ? balanceOf(db, accountId) : 0;
      return inTransaction(
        db,
        () => {
          const mine = db
            .prepare('SELECT balance FROM accounts WHERE id = ? AND workspace_id = ?')
            .get(accountId, principal.workspace) as { balance: number } | undefined;
          if (!mine) return outcome.refused('unavailable');
          const stored = storedReceipt(db, key);
          if (stored)
            return stored.payload === payload
              ? outcome.replayed(JSON.parse(stored.response))
              : outcome.keyReuse();
          const balance = bug === 'stale-overdraft-check' ? early : mine.balance;
          const overdrawn =
            bug === 'refuses-emptying-debit' ? balance + amount <= 0 : balance + amount < 0;
          if (overdrawn) return outcome.refused('insufficient');
          const after = db
            .prepare('UPDATE accounts SET balance = balance + ? WHERE id = ? RETURNING balance')
            .get(amount, accountId) as { balance: number };
          const result = { accountId, balance: after.balance };
          storeReceipt(db, key, payload, result);
          return outcome.fresh(result);
        },
        bug === 'refresh-after-commit'
          ? () => outcome.fresh({ accountId, balance: balanceOf(db, accountId) })
          : undefined,
      );
    },
    move: (db, id, workspace) =>
      void db.prepare('UPDATE accounts SET workspace_id = ? WHERE id = ?').run(workspace, id),
    delete: (db, id) => void db.prepare('DELETE FROM accounts WHERE id = ?').run(id),
    recreate: (db, a) =>
      void db
        .prepare('INSERT OR IGNORE INTO accounts VALUES (?, ?, ?)')
        .run(a.id, a.workspace, a.balance),
    ...receiptStore,
    snapshot: (db) => ({
      accounts: db
        .prepare('SELECT id, workspace_id AS workspace, balance FROM accounts')
        .all() as Row[],
      receipts: readReceipts(db),
    }),
  });
}

export default accountsHandler('accounts');
