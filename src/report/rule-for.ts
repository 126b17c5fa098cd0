/**
 * The contract rule that decides each outcome (docs/contract.md, "The rules of one call"), in
 * words. The model is the contract written as code, so the outcome it demands names the numbered
 * check that decided it. Pure. `contract-doc.test.ts` holds that page to the numbers cited here.
 */

import type { OperationSpec } from '../model/operation.ts';
import { setInterval } from '../model/operations/set-interval.ts';
import type { Observed } from '../model/outcome.ts';
import type { Explanation } from './explanation.ts';

/**
 * The rule that decides an expected outcome, for `spec` (default `set-interval`, in the
 * article's words); another operation's rules carry the same numbers (docs/contract.md, "Any
 * operation") and name its own scope, fields and precondition.
 */
export function ruleFor(expected: Observed, spec: OperationSpec = setInterval): Explanation {
  if (spec.name !== setInterval.name) return genericRuleFor(expected, spec);
  switch (expected.kind) {
    case 'refused':
      if (expected.reason === 'forbidden')
        return {
          rule: '1',
          text: 'a principal without the automation:write scope is refused (forbidden) before anything else, even when a receipt exists',
        };
      if (expected.reason === 'unavailable')
        return {
          rule: '6',
          text: 'current access is checked before any receipt: an automation that is missing, deleted or in another workspace is unavailable, and a moved or deleted resource never replays',
        };
      return {
        rule: '8',
        text: 'a call whose expected version is not the current one is a conflict; a new key never bypasses an old version',
      };
    case 'invalid':
      if (expected.field === 'requestId')
        return {
          rule: '2',
          text: 'the request id must be a string of 1–64 characters from [A-Za-z0-9_-]',
        };
      if (expected.field === 'intervalMinutes')
        return { rule: '4', text: 'the interval must be an integer from 5 to 1440' };
      return {
        rule: '3',
        text: `${expected.field} must be an integer ≥ 1 (booleans, floats, strings, NaN and unsafe integers are not)`,
      };
    case 'keyReuse':
      return {
        rule: '7',
        text: 'a receipt exists for this key with a different target, expected version or interval: that is key reuse, never a write',
      };
    case 'ok':
      if (expected.replayed)
        return {
          rule: '7',
          text: 'a receipt exists for this key with the same payload: the call replays the stored result (historical, not a fresh read); the receipt lookup comes before the version check, because the original success already advanced the version',
        };
      return {
        rule: '9–11',
        text: 'no receipt and the expected version is current: update the row, insert the receipt, commit, and return the new row as a fresh ok',
      };
    case 'error':
      return {
        rule: '10',
        text: 'the receipt insert failed, so the whole transaction rolls back: the caller gets an error and no row change or receipt remains',
      };
    case 'notSent':
      return { text: 'a lost request never reaches the handler' };
    case 'unexpected':
      return { text: 'the model never expects an unexpected error' };
  }
}

/** `ruleFor` for any operation but `set-interval`. */
function genericRuleFor(expected: Observed, spec: OperationSpec): Explanation {
  switch (expected.kind) {
    case 'refused':
      if (expected.reason === 'forbidden')
        return {
          rule: '1',
          text: `a principal without the ${spec.scope} scope is refused (forbidden) before anything else, even when a receipt exists`,
        };
      if (expected.reason === 'unavailable')
        return {
          rule: '6',
          text: `current access is checked before any receipt: a ${spec.noun} that is missing, deleted or in another workspace is unavailable, and a moved or deleted resource never replays`,
        };
      return {
        rule: '8',
        text: `the operation's precondition fails (${expected.reason}); it is checked after the receipt, so a retry of a call that succeeded still replays`,
      };
    case 'invalid': {
      if (expected.field === 'requestId') return ruleFor(expected);
      const field = spec.fields.find((f) => f.name === expected.field);
      if (field?.rule.kind === 'id')
        return {
          rule: '3',
          text: `${expected.field} must be an integer ≥ 1 (booleans, floats, strings, NaN and unsafe integers are not)`,
        };
      const range =
        field?.rule.kind === 'integer'
          ? `an integer from ${field.rule.min} to ${field.rule.max}${field.rule.nonZero ? ', not 0' : ''}`
          : 'valid by its rule';
      return { rule: '4', text: `${expected.field} must be ${range}; fields are checked in order` };
    }
    case 'keyReuse':
      return {
        rule: '7',
        text: 'a receipt exists for this key with a different payload: that is key reuse, never a write',
      };
    case 'ok':
      if (expected.replayed)
        return {
          rule: '7',
          text: 'a receipt exists for this key with the same payload: the call replays the stored result (historical, not a fresh read), before the precondition is checked',
        };
      return {
        rule: '9–11',
        text: `no receipt and the precondition holds: apply the effect (${spec.name}), insert the receipt, commit, and return the result as a fresh ok`,
      };
    default:
      return ruleFor(expected);
  }
}
