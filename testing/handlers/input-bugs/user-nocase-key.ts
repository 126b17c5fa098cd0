/**
 * Input bug: the receipt lookup compares users case-insensitively (a `COLLATE NOCASE` user
 * column, or e-mail addresses lower-cased on one path only), so Alice meets alice's receipts in
 * their shared workspace. Caught only by principals whose users differ only in case.
 */
import {
  keyOf,
  type StoredReceipt,
} from '../../../src/handlers/operations/set-interval/sqlite/set-interval-steps.ts';
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';

export const CAUGHT_BY: readonly InputClass[] = ['principal user differs only in case'];

export default defineInputBug({
  name: 'user-nocase-key',
  description: "Looks receipts up with user_id COLLATE NOCASE, so Alice meets alice's receipts.",
  steps: {
    findReceipt(db, principal, r) {
      return db
        .prepare(
          'SELECT payload, response FROM receipts WHERE workspace_id = ? AND user_id = ? COLLATE NOCASE AND tool = ? AND request_id = ?',
        )
        .get(...keyOf(principal, r)) as StoredReceipt | undefined;
    },
  },
});
