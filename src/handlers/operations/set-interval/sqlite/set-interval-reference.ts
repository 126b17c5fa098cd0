/**
 * The reference handler: the contract on better-sqlite3, as the article builds it. One
 * `BEGIN IMMEDIATE` transaction takes the write lock before the first read, so two first
 * attempts cannot both miss the receipt; current access is checked before the receipt, and
 * the receipt before the version. A failed receipt insert rolls the row change back.
 */
import type { CallRequest } from '../../../../model/events.ts';
import { type Outcome, outcome } from '../../../../model/outcome.ts';
import { invalidField } from '../../../../model/validate.ts';
import { type Principal, WRITE_SCOPE } from '../../../../model/world.ts';
import { defineHandler } from '../../../plugin.ts';
import { inImmediateTransaction } from '../../../sqlite/transaction.ts';
import { referenceSteps, runSteps, type ValidRequest } from './set-interval-steps.ts';
import { sqliteWorld } from './set-interval-world.ts';

/** Rules 1–4: scope and validation, before any SQL. Returns a refusal, or the typed request. */
export function precheck(principal: Principal, request: CallRequest): Outcome | ValidRequest {
  if (!principal.scopes.includes(WRITE_SCOPE)) return outcome.refused('forbidden');
  const field = invalidField(request);
  if (field) return outcome.invalid(field);
  return request as unknown as ValidRequest;
}

export default defineHandler({
  name: 'reference',
  description:
    'The contract as written: one BEGIN IMMEDIATE transaction, access, receipt, version, write.',
  ...sqliteWorld,
  replayable: true,
  call(db, principal, request) {
    const checked = precheck(principal, request);
    if ('kind' in checked) return checked;
    return inImmediateTransaction(db, () => runSteps(db, principal, checked, referenceSteps));
  },
});
