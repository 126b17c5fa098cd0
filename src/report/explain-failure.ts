/**
 * Says which rule of the contract a failure broke, in words. The rule follows from the outcome
 * the model expected: the model is the contract written as code, so the outcome it demanded names
 * the numbered check (docs/contract.md, "The rules of one call") that decided it. Pure; data
 * first (`Explanation`), the counterexample renderer turns it into text.
 */

import type { OperationSpec } from '../model/operation.ts';
import { setInterval } from '../model/operations/set-interval.ts';
import { describeOutcome, isLeftOpen, type Observed } from '../model/outcome.ts';
import { STORED_ERROR_MESSAGE } from '../model/step.ts';
import { INJECTED_FAULT_CODE } from '../types/scheduled-trace.ts';
import type { Failure } from '../types/verdict.ts';
import { explainHang } from './explain-hang.ts';
import { explainLinearizability } from './explain-linearizability.ts';
import type { Explanation } from './explanation.ts';
import { ruleFor } from './rule-for.ts';

/** Explains one failure. Kinds added later by other modes get a generic text until explained here. */
export function explainFailure(failure: Failure, spec: OperationSpec = setInterval): Explanation {
  switch (failure.kind) {
    case 'outcome':
      if (failure.faulted) return faultedCall(failure.expected, failure.actual);
      if (failure.alsoAllowed) return withActual(CLAIM_MET, failure.expected, failure.actual);
      if (failure.expected.kind === 'error' && failure.expected.message === STORED_ERROR_MESSAGE)
        return withActual(ERROR_STORED, failure.expected, failure.actual);
      return withActual(ruleFor(failure.expected, spec), failure.expected, failure.actual);
    case 'snapshot': {
      const which = failure.differences.map((d) =>
        'key' in d ? `receipt ${readableKey(d.key)}` : `${d.what} ${d.id}`,
      );
      return {
        text: `the database at the end differs from the model's state (${which.join(', ')}): rows and receipts must be exactly those the outcomes imply`,
      };
    }
    case 'invariant':
      return { text: `invariant broken: ${failure.invariant} (${failure.message})` };
    case 'linearizability':
      return explainLinearizability(failure, spec);
    case 'hang':
      return explainHang(failure);
    default:
      return { text: `${(failure as { kind: string }).kind} failure: ${JSON.stringify(failure)}` };
  }
}

/**
 * A claim a crashed call left (policy `claimExpiry`) met by another payload: the one place the
 * model allows two answers (`Transition.alsoAllowed`).
 */
const CLAIM_MET: Explanation = {
  rule: '7',
  text: 'an in-progress claim a crashed call left holds this key for another payload: the contract allows keyReuse (the payload checked first) or refused(conflict) (the claim checked first), never a write or any other answer',
};

/**
 * An error the library recorded under this key (policy `storesErrors`), met by the same payload:
 * it is replayed like a result.
 */
const ERROR_STORED: Explanation = {
  rule: '7',
  text: 'an error is stored under this key with the same payload (policy storesErrors: the library recorded the error a write of the first call ended in): a retry gets that error again, for as long as the key lasts, and runs nothing',
};

/**
 * A call with a statement fault injected answered neither `error` (the fault surfaced, rule 10)
 * nor the model's outcome (the handler recovered).
 */
function faultedCall(expected: Observed, actual: Observed): Explanation {
  const recovered =
    expected.kind === 'error'
      ? ''
      : `; a handler that recovers instead (retries the statement) must answer what the rules give, ${describeOutcome(expected)}`;
  const base: Explanation = {
    rule: '10',
    text: `a write of this call failed (a statement fault was injected: ${INJECTED_FAULT_CODE}, what a failing receipt store raises), so the transaction rolls back and the call answers error, with nothing changed${recovered}`,
  };
  if (actual.kind === 'unexpected')
    return {
      ...base,
      text: `${base.text}. The plugin let the exception through instead: map SQLITE_CONSTRAINT… errors of a write to outcome.error after rolling back`,
    };
  return base;
}

function withActual(base: Explanation, expected: Observed, actual: Observed): Explanation {
  if (actual.kind === 'unexpected' && isLeftOpen(actual))
    return {
      ...base,
      text: `the call ${actual.message}: a call must end its transaction (COMMIT or ROLLBACK) before it returns, on every path, refusals and errors included; left open, its locks stay held until the connection is used again, and the next request on it runs inside that transaction or fails. The harness rolled it back to go on. What the rule gives this call: ${base.text}`,
    };
  // The exception first: the rule says what the call was owed, which reads as the bug's cause
  // (a lookup order, say) when the handler's order was right and a lock error escaped.
  if (actual.kind === 'unexpected')
    return {
      ...base,
      text: `the plugin let an exception through (${describeOutcome(actual)}) where the contract gives ${describeOutcome(expected)}: a plugin must map every exception to an outcome, and a service answer every request. What the rule gives this call: ${base.text}`,
    };
  // Likewise an error answered: often a lock or key failure a race caused, not the rule's order.
  if (actual.kind === 'error' && expected.kind !== 'error')
    return {
      ...base,
      text: `the call answered ${describeOutcome(actual)} where the contract gives ${describeOutcome(expected)}: the contract answers error only when the receipt store fails. What the rule gives this call: ${base.text}`,
    };
  if (expected.kind === 'ok' && expected.replayed && actual.kind === 'ok' && actual.replayed)
    return {
      ...base,
      text: `${base.text}. The replay carried a different result than the one stored with the receipt`,
    };
  if (expected.kind === 'ok' && actual.kind === 'ok' && expected.replayed !== actual.replayed)
    return {
      ...base,
      text: `${base.text}. The replayed flag is ${actual.replayed ? 'set on a fresh write' : 'missing on a replay'}`,
    };
  return base;
}

/** A receipt key (`workspace␀user␀tool␀requestId`) as `user@workspace/requestId`. */
export function readableKey(key: string): string {
  const [workspace, user, , requestId] = key.split('\u0000');
  return `${user}@${workspace}/${requestId}`;
}
