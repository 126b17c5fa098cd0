/**
 * Input validation, rules 2–4 of the contract, as one pure function. Booleans, floats, strings,
 * NaN and unsafe integers are not integers; the checks run in the contract's order.
 */
import type { CallRequest } from './events.ts';
import type { InvalidField } from './outcome.ts';

const REQUEST_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Smallest and largest interval the illustrative domain rule allows. */
export const INTERVAL_MIN = 5;
export const INTERVAL_MAX = 1440;

/** The first field that breaks a rule, or undefined when the request is well formed. */
export function invalidField(request: CallRequest): InvalidField | undefined {
  if (!isRequestId(request.requestId)) return 'requestId';
  if (!isPositiveInteger(request.automationId)) return 'automationId';
  if (!isPositiveInteger(request.expectedVersion)) return 'expectedVersion';
  const interval = request.intervalMinutes;
  if (
    !Number.isSafeInteger(interval) ||
    (interval as number) < INTERVAL_MIN ||
    (interval as number) > INTERVAL_MAX
  ) {
    return 'intervalMinutes';
  }
  return undefined;
}

/** A string of 1 to 64 characters, each a letter, a digit, `_` or `-` (rule 2). */
export function isRequestId(value: unknown): value is string {
  return typeof value === 'string' && REQUEST_ID.test(value);
}

/** A safe integer ≥ 1 of type number. */
export function isPositiveInteger(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}
