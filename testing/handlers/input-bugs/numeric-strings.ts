/**
 * Input bug: numeric strings are turned into numbers before validation (`Number(x)`, as query
 * strings and form fields need), so `'1'`, `' 1'` and `'30'` are accepted where the contract says
 * `invalid`. Caught only by numeric strings.
 */
import { precheck } from '../../../src/handlers/operations/set-interval/sqlite/set-interval-reference.ts';
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';

export const CAUGHT_BY: readonly InputClass[] = [
  'automationId numeric string',
  'expectedVersion numeric string',
  'intervalMinutes numeric string',
];

const parsed = (v: unknown) =>
  typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;

export default defineInputBug({
  name: 'numeric-strings',
  description: 'Parses numeric strings into numbers before validating, so "1" is accepted.',
  precheck: (principal, request) =>
    precheck(principal, {
      ...request,
      automationId: parsed(request.automationId),
      expectedVersion: parsed(request.expectedVersion),
      intervalMinutes: parsed(request.intervalMinutes),
    }),
});
