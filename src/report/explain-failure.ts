/**
 * Says which rule of the contract a failure broke, in words. The rule follows from the outcome
 * the model expected: the model is the contract written as code, so the outcome it demanded names
 * the numbered check (CONTRACT.md, "One call") that decided it. Pure; data first (`Explanation`),
 * the counterexample renderer turns it into text.
 */
import type { Failure } from '../check/check-run.ts';
import type { Observed } from '../model/outcome.ts';

/** Why a failure matters: the contract rule (or invariant) broken, in words. */
export interface Explanation {
  /** The rule number(s) in CONTRACT.md, e.g. `7` or `9–11`; undefined for invariants and harness rules. */
  readonly rule?: string;
  /** One or two sentences a reader can act on. */
  readonly text: string;
}

/** Explains one failure. Unknown failure kinds (added by other modes) get a generic text. */
export function explainFailure(failure: Failure): Explanation {
  switch (failure.kind) {
    case 'outcome':
      return withActual(ruleFor(failure.expected), failure.expected, failure.actual);
    case 'snapshot': {
      const which = failure.differences.map((d) =>
        d.what === 'automation' ? `automation ${d.id}` : `receipt ${readableKey(d.key)}`,
      );
      return {
        text: `the database at the end differs from the model's state (${which.join(', ')}): rows and receipts must be exactly those the outcomes imply`,
      };
    }
    case 'invariant':
      return { text: `invariant broken: ${failure.invariant} (${failure.message})` };
    default:
      return { text: `${(failure as { kind: string }).kind} failure: ${JSON.stringify(failure)}` };
  }
}

/** The rule that decides an expected outcome. */
export function ruleFor(expected: Observed): Explanation {
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

function withActual(base: Explanation, expected: Observed, actual: Observed): Explanation {
  if (actual.kind === 'unexpected')
    return {
      ...base,
      text: `${base.text}. The plugin let an exception through instead: a plugin must map every exception to an outcome`,
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
