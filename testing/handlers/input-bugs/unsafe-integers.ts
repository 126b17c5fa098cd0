/**
 * Input bug: ids and versions are validated with `Number.isInteger` instead of
 * `Number.isSafeInteger`, so 2^53, which cannot be told from 2^53 + 1, passes as an id. Caught
 * only by unsafe integers.
 */
import { precheck } from '../../../src/handlers/operations/set-interval/sqlite/set-interval-reference.ts';
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';

export const CAUGHT_BY: readonly InputClass[] = [
  'automationId unsafe integer',
  'expectedVersion unsafe integer',
  'intervalMinutes unsafe integer',
];

/** An unsafe integer ≥ 1 stands in as 1 for the reference's check, which this handler skips. */
const standIn = (v: unknown) =>
  Number.isInteger(v) && !Number.isSafeInteger(v) && (v as number) >= 1 ? 1 : v;

export default defineInputBug({
  name: 'unsafe-integers',
  description: 'Validates ids and versions with Number.isInteger, so 2^53 is accepted.',
  precheck(principal, request) {
    const checked = precheck(principal, {
      ...request,
      automationId: standIn(request.automationId),
      expectedVersion: standIn(request.expectedVersion),
    });
    if ('kind' in checked) return checked;
    return {
      ...checked,
      automationId: request.automationId as number,
      expectedVersion: request.expectedVersion as number,
    };
  },
});
