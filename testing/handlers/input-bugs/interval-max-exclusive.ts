/**
 * Input bug: the interval rule is `interval < 1440` (an off-by-one), so the largest interval the
 * contract allows is refused as invalid. Caught only by 1440.
 */

import { precheck } from '../../../src/handlers/operations/set-interval/sqlite/set-interval-reference.ts';
import { outcome } from '../../../src/model/outcome.ts';
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';

export const CAUGHT_BY: readonly InputClass[] = ['intervalMinutes 1440'];

export default defineInputBug({
  name: 'interval-max-exclusive',
  description: 'Allows intervals below 1440 only, so 1440 minutes is refused as invalid.',
  precheck(principal, request) {
    const checked = precheck(principal, request);
    if ('kind' in checked || checked.intervalMinutes < 1440) return checked;
    return outcome.invalid('intervalMinutes');
  },
});
