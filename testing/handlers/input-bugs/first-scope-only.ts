/**
 * Input bug: the scope check reads only the first scope (`scopes[0] === 'automation:write'`, or
 * the scope string compared whole), so a principal holding another scope besides the write scope
 * is refused. Caught only by principals with extra scopes.
 */

import { precheck } from '../../../src/handlers/operations/set-interval/sqlite/set-interval-reference.ts';
import { outcome } from '../../../src/model/outcome.ts';
import { WRITE_SCOPE } from '../../../src/model/world.ts';
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';

export const CAUGHT_BY: readonly InputClass[] = ['principal extra scopes'];

export default defineInputBug({
  name: 'first-scope-only',
  description: 'Reads only the first scope, so a principal with another scope first is refused.',
  precheck: (principal, request) =>
    principal.scopes[0] === WRITE_SCOPE
      ? precheck(principal, request)
      : outcome.refused('forbidden'),
});
