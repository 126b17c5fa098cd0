/**
 * Input bug: the request id rule allows 1 to 65 characters (`{1,65}`, an off-by-one), so a
 * 65-character id, invalid by the contract, is accepted and written. Caught only by ids of
 * exactly 65 characters.
 */
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';
import { requestIdRule } from './request-id-rule.ts';

export const CAUGHT_BY: readonly InputClass[] = ['requestId length 65'];

export default defineInputBug({
  name: 'request-id-max-65',
  description: 'Allows request ids of 1 to 65 characters, so a 65-character id is accepted.',
  precheck: requestIdRule((id) => typeof id === 'string' && /^[A-Za-z0-9_-]{1,65}$/.test(id)),
});
