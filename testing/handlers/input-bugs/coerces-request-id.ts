/**
 * Input bug: the request id goes through `String(x)` before it is validated (a template
 * literal, a query-string round trip), so `42`, `true`, `null` and `['r0']` become the valid ids
 * `42`, `true`, `null` and `r0`. Caught only by request ids of the wrong type.
 */
import { isRequestId } from '../../../src/model/validate.ts';
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';
import { requestIdRule } from './request-id-rule.ts';

export const CAUGHT_BY: readonly InputClass[] = [
  'requestId number',
  'requestId null',
  'requestId boolean',
  'requestId array',
];

export default defineInputBug({
  name: 'coerces-request-id',
  description: 'Turns the request id into a string with String() before validating it.',
  precheck: requestIdRule((id) => isRequestId(String(id)), String),
});
