/**
 * Input bug: the request id column holds 36 characters (sized for a UUID) and silently keeps
 * the first 36, as a VARCHAR(36) does in MySQL's non-strict mode. Every longer id is stored cut
 * short, and two ids that share their first 36 characters share a key. Caught only by valid ids
 * longer than 36 characters.
 */
import {
  referenceSteps,
  type ValidRequest,
} from '../../../src/handlers/operations/set-interval/sqlite/set-interval-steps.ts';
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';

export const CAUGHT_BY: readonly InputClass[] = [
  'requestId length 37',
  'requestId length 63',
  'requestId length 64',
];

const capped = (r: ValidRequest): ValidRequest => ({ ...r, requestId: r.requestId.slice(0, 36) });

export default defineInputBug({
  name: 'request-id-capped-36',
  description: 'Keeps only the first 36 characters of a request id, as a VARCHAR(36) column does.',
  steps: {
    findReceipt: (db, principal, r) => referenceSteps.findReceipt(db, principal, capped(r)),
    insertReceipt: (db, principal, r, result) =>
      referenceSteps.insertReceipt(db, principal, capped(r), result),
  },
});
