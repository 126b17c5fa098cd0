/**
 * Input bug: the request id rule is `{0,64}` (`*` where `+` was meant), so the empty string is a
 * key: the first call without an id writes under it, and every later one replays or reuses it.
 * Caught only by the empty id.
 */
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';
import { requestIdRule } from './request-id-rule.ts';

export const CAUGHT_BY: readonly InputClass[] = ['requestId empty'];

export default defineInputBug({
  name: 'request-id-may-be-empty',
  description: 'Allows request ids of 0 to 64 characters, so the empty id is a key.',
  precheck: requestIdRule((id) => typeof id === 'string' && /^[A-Za-z0-9_-]{0,64}$/.test(id)),
});
