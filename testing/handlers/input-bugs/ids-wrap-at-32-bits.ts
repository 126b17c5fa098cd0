/**
 * Input bug: ids and versions are kept in 32 bits (`x | 0`, an INT column, an Int32Array), so
 * automation 2^32 + 1, which does not exist, is automation 1, and version 2^32 + 1 matches
 * version 1. Caught only by ids and versions beyond 32 bits.
 */

import { precheck } from '../../../src/handlers/operations/set-interval/sqlite/set-interval-reference.ts';
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';

export const CAUGHT_BY: readonly InputClass[] = [
  'automationId beyond 32 bits',
  'expectedVersion beyond 32 bits',
];

export default defineInputBug({
  name: 'ids-wrap-at-32-bits',
  description: 'Keeps ids and versions in 32 bits, so automation 2^32 + 1 is automation 1.',
  precheck(principal, request) {
    const checked = precheck(principal, request);
    if ('kind' in checked) return checked;
    return {
      ...checked,
      automationId: checked.automationId | 0,
      expectedVersion: checked.expectedVersion | 0,
    };
  },
});
