/**
 * Input bug: request ids are validated as slugs that must start with a letter or a digit, a
 * common rule for names, so `-r3` and `_r3`, valid by the contract, are refused. Caught only by
 * ids with `_` or `-` at an edge.
 */
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';
import { requestIdRule } from './request-id-rule.ts';

export const CAUGHT_BY: readonly InputClass[] = ['requestId _ or - at an edge'];

export default defineInputBug({
  name: 'slug-request-id',
  description: 'Requires a request id to start with a letter or digit, so -r3 is refused.',
  precheck: requestIdRule(
    (id) => typeof id === 'string' && /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(id),
  ),
});
