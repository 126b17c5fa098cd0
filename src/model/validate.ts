/**
 * Input validation, rule 2 of the generic contract, as one pure function: the request id first,
 * then each of the operation's fields in its order. Booleans, floats, strings, NaN and unsafe
 * integers are not integers.
 */
import type { CallRequest } from './events.ts';
import {
  type ArgumentField,
  type FieldRule,
  type OperationSpec,
  targetFieldsOf,
} from './operation.ts';
import { setInterval } from './operations/set-interval.ts';

export { INTERVAL_MAX, INTERVAL_MIN } from './operations/set-interval.ts';

const REQUEST_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The first field that breaks a rule, or undefined when the request is well formed. The
 * operation defaults to `set-interval`.
 */
export function invalidField(
  request: CallRequest,
  spec: OperationSpec = setInterval,
): string | undefined {
  if (!isRequestId(request.requestId)) return 'requestId';
  // A loop, not `find` with a closure: this runs for every call the model steps over.
  const fields = spec.fields;
  const several = spec.otherTargets !== undefined;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] as ArgumentField;
    if (!fieldHolds(f, request[f.name])) return f.name;
    if (several && namesEarlierTarget(spec, request, i)) return f.name;
  }
  return undefined;
}

/**
 * Whether field `at` of `spec` is a target field naming the row a target field earlier in
 * validation order names: a call's target rows are distinct (a transfer from an account to
 * itself is invalid input, in the later of the two fields).
 */
function namesEarlierTarget(spec: OperationSpec, request: CallRequest, at: number): boolean {
  const targets = targetFieldsOf(spec);
  const name = (spec.fields[at] as ArgumentField).name;
  if (!targets.includes(name)) return false;
  for (let i = 0; i < at; i++) {
    const earlier = (spec.fields[i] as ArgumentField).name;
    if (targets.includes(earlier) && request[earlier] === request[name]) return true;
  }
  return false;
}

/** Whether `value` passes `field`'s rule. */
export function fieldHolds(field: ArgumentField, value: unknown): boolean {
  return ruleHolds(field.rule, value);
}

function ruleHolds(rule: FieldRule, value: unknown): boolean {
  switch (rule.kind) {
    case 'id':
      return isPositiveInteger(value);
    case 'integer':
      return (
        Number.isSafeInteger(value) &&
        (value as number) >= rule.min &&
        (value as number) <= rule.max &&
        !(rule.nonZero && value === 0)
      );
    case 'custom':
      return rule.check(value);
  }
}

/** A string of 1 to 64 characters, each a letter, a digit, `_` or `-` (rule 2). */
export function isRequestId(value: unknown): value is string {
  return typeof value === 'string' && REQUEST_ID.test(value);
}

/** A safe integer ≥ 1 of type number. */
export function isPositiveInteger(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}
