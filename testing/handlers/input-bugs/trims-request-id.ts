/**
 * Input bug: the request id is trimmed before it is validated, as form handling and many
 * frameworks do with strings, so `r0 ` is accepted as `r0` (and meets its receipt) where the
 * contract says `invalid(requestId)`. Caught only by ids with a space at an edge.
 */
import { isRequestId } from '../../../src/model/validate.ts';
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';
import { requestIdRule } from './request-id-rule.ts';

export const CAUGHT_BY: readonly InputClass[] = ['requestId space at an edge'];

const trimmed = (id: unknown) => (typeof id === 'string' ? id.trim() : id);

export default defineInputBug({
  name: 'trims-request-id',
  description: 'Trims the request id before validating it, so "r0 " is taken for r0.',
  precheck: requestIdRule(
    (id) => isRequestId(trimmed(id)),
    (id) => trimmed(id) as string,
  ),
});
