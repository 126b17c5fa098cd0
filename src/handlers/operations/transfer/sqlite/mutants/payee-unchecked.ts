/**
 * Mutant (transfer): checks current access for the debited account only. The credited account
 * may be in another workspace, or missing: a transfer into another tenant's account succeeds
 * (and one to a missing account fails with an unexpected error from the credit leg).
 * Real-world class: authorisation of the primary resource only, the secondary id in the body
 * trusted (an IDOR on the destination of a transfer).
 * Killed by: sequential mode (a transfer to an account of another workspace: `ok` where the
 * model says `unavailable`).
 */
import { defineOperationMutant } from '../../../../sqlite/operation-handler.ts';
import { referenceStepsOf } from '../../../../sqlite/operation-steps.ts';
import { transferParts, transferSql } from '../transfer-sql.ts';

/** The reference's access check with only the debited account among the targets. */
const debitedOnly = referenceStepsOf({ ...transferSql, targetsOf: (r) => [r.fromAccountId] });

export default defineOperationMutant(transferParts, {
  name: 'transfer-payee-unchecked',
  description:
    'Checks access for the debited account only, so a transfer into an account of another workspace succeeds.',
  steps: { canAccess: debitedOnly.canAccess },
});
