/**
 * Input bug: the request id rule allows 1 to 63 characters (`{1,63}`, an off-by-one), so a
 * 64-character id, valid by the contract, is refused as invalid. Caught only by ids of exactly
 * 64 characters.
 */
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';
import { requestIdRule } from './request-id-rule.ts';

export const CAUGHT_BY: readonly InputClass[] = ['requestId length 64'];

export default defineInputBug({
  name: 'request-id-max-63',
  description: 'Allows request ids of 1 to 63 characters, so a 64-character id is refused.',
  precheck: requestIdRule((id) => typeof id === 'string' && /^[A-Za-z0-9_-]{1,63}$/.test(id)),
});
