/**
 * Input bug: ids and versions are checked to be ≥ 0 instead of ≥ 1 (an off-by-one, or an
 * unsigned column type taken for the rule), so automation 0 and version 0 get `unavailable` or
 * `conflict` where the contract says `invalid`. Caught only by 0.
 */
import { precheck } from '../../../src/handlers/operations/set-interval/sqlite/set-interval-reference.ts';
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';

export const CAUGHT_BY: readonly InputClass[] = ['automationId 0', 'expectedVersion 0'];

/** 0 stands in as 1 for the reference's check, which this handler gets wrong. */
const standIn = (v: unknown) => (v === 0 ? 1 : v);

export default defineInputBug({
  name: 'ids-from-zero',
  description: 'Accepts ids and versions from 0, so automation 0 is refused instead of invalid.',
  precheck(principal, request) {
    const checked = precheck(principal, {
      ...request,
      automationId: standIn(request.automationId),
      expectedVersion: standIn(request.expectedVersion),
    });
    if ('kind' in checked) return checked;
    return {
      ...checked,
      automationId: request.automationId as number,
      expectedVersion: request.expectedVersion as number,
    };
  },
});
