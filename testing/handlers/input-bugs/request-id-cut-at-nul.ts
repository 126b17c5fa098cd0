/**
 * Input bug: the request id is passed on as a C string (a native driver or an FFI boundary), so
 * it ends at the first NUL: `r0\0…` is validated and stored as `r0`. Caught only by ids with a
 * NUL in them.
 */
import { isRequestId } from '../../../src/model/validate.ts';
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';
import { requestIdRule } from './request-id-rule.ts';

export const CAUGHT_BY: readonly InputClass[] = ['requestId NUL'];

const cut = (id: unknown) => (typeof id === 'string' ? id.split('\u0000')[0] : id);

export default defineInputBug({
  name: 'request-id-cut-at-nul',
  description: 'Ends the request id at its first NUL, as a C string does, so r0\\0x is r0.',
  precheck: requestIdRule(
    (id) => isRequestId(cut(id)),
    (id) => cut(id) as string,
  ),
});
