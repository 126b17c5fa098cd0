/**
 * Test-only: a precheck whose request id rule is not the contract's. `accepts` says which ids
 * the handler takes; `normalise` what it makes of them. The other fields and the scope are
 * checked as the reference does.
 */
import { precheck } from '../../../src/handlers/operations/set-interval/sqlite/set-interval-reference.ts';
import type { ValidRequest } from '../../../src/handlers/operations/set-interval/sqlite/set-interval-steps.ts';
import type { CallRequest } from '../../../src/model/events.ts';
import { type Outcome, outcome } from '../../../src/model/outcome.ts';
import type { Principal } from '../../../src/model/world.ts';

/** A precheck like the reference's, except that a request id is valid when `accepts` says so. */
export function requestIdRule(
  accepts: (id: unknown) => boolean,
  normalise: (id: unknown) => string = (id) => id as string,
): (principal: Principal, request: CallRequest) => Outcome | ValidRequest {
  return (principal, request) => {
    // A stand-in id the reference accepts, so it checks the scope and the other fields.
    const checked = precheck(principal, { ...request, requestId: 'x' });
    if ('kind' in checked) return checked;
    if (!accepts(request.requestId)) return outcome.invalid('requestId');
    return { ...checked, requestId: normalise(request.requestId) };
  };
}
