/**
 * Input bug: the scope check asks whether a scope starts with `automation:write`, so a
 * principal holding `automation:writer` (a different permission) may write. Caught only by
 * principals with a look-alike scope and not the write scope.
 */
import { precheck } from '../../../src/handlers/operations/set-interval/sqlite/set-interval-reference.ts';
import { WRITE_SCOPE } from '../../../src/model/world.ts';
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';

export const CAUGHT_BY: readonly InputClass[] = ['principal look-alike scope'];

export default defineInputBug({
  name: 'scope-prefix',
  description: 'Grants write to any scope starting with automation:write, automation:writer too.',
  precheck(principal, request) {
    const writes = principal.scopes.some((s) => s.startsWith(WRITE_SCOPE));
    return precheck({ ...principal, scopes: writes ? [WRITE_SCOPE] : [] }, request);
  },
});
