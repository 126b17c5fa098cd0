/**
 * Input bug: the receipt lookup compares request ids case-insensitively (`COLLATE NOCASE`, as
 * MySQL's default collation does), so `R3` finds the receipt of `r3`: a new intent gets
 * `keyReuse`, or the other intent's result. Caught only by ids that differ only in case.
 */
import type { StoredReceipt } from '../../../src/handlers/operations/set-interval/sqlite/set-interval-steps.ts';
import { keyOf } from '../../../src/handlers/operations/set-interval/sqlite/set-interval-steps.ts';
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';

export const CAUGHT_BY: readonly InputClass[] = [
  'requestId differs only in case from an earlier one',
];

export default defineInputBug({
  name: 'nocase-request-id',
  description: 'Looks receipts up with request_id COLLATE NOCASE, so R3 meets the receipt of r3.',
  steps: {
    findReceipt(db, principal, r) {
      return db
        .prepare(
          'SELECT payload, response FROM receipts WHERE workspace_id = ? AND user_id = ? AND tool = ? AND request_id = ? COLLATE NOCASE',
        )
        .get(...keyOf(principal, r)) as StoredReceipt | undefined;
    },
  },
});
