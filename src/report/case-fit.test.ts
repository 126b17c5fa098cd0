/**
 * A case fits its operation or is refused with the first misfit: each check shown a case it must
 * accept (the article's default world, create-once's own) and one it must refuse.
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent, Step } from '../model/events.ts';
import { createOnce } from '../model/operations/create-once.ts';
import { setInterval } from '../model/operations/set-interval.ts';
import type { FixtureWithPolicy } from '../model/state.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import { caseFitProblem } from './case-fit.ts';

const setCall = (client = 0): CallEvent => ({
  kind: 'call',
  client,
  delivery: 'delivered',
  request: { requestId: 'r1', automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
});
const invoiceCall: Step = {
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  request: { requestId: 'r1', customerId: 1, amount: 100 },
};
const without = (key: string): FixtureWithPolicy => {
  const { [key]: _gone, ...rest } = DEFAULT_FIXTURE as unknown as Record<string, unknown>;
  return rest as unknown as FixtureWithPolicy;
};

describe('caseFitProblem', () => {
  it('accepts a case of its own operation, in a group too', () => {
    const group: Step = { kind: 'concurrent', events: [setCall(0), { kind: 'revoke', client: 2 }] };
    expect(caseFitProblem(DEFAULT_FIXTURE, [setCall(), group], setInterval)).toBeUndefined();
    expect(caseFitProblem(createOnce.fixture, [invoiceCall], createOnce)).toBeUndefined();
  });

  it('refuses a fixture without principals, or with a malformed one', () => {
    expect(caseFitProblem(without('principals'), [], setInterval)).toMatch(
      /without a "principals" list/,
    );
    const odd = {
      ...DEFAULT_FIXTURE,
      principals: [{ user: 'alice', workspace: 'team-a' }],
    } as unknown as FixtureWithPolicy;
    expect(caseFitProblem(odd, [], setInterval)).toMatch(/principal 0: needs "user"/);
  });

  it("refuses a fixture without the operation's rows", () => {
    expect(caseFitProblem(without('automations'), [], setInterval)).toBe(
      'has a "fixture" without "automations", the set-interval rows the case starts from (a list, empty if none)',
    );
  });

  it('refuses a client with no principal, in a call or a world event', () => {
    expect(caseFitProblem(DEFAULT_FIXTURE, [setCall(7)], setInterval)).toMatch(
      /^step 1: client 7 has no principal \(the fixture lists 7, clients 0 to 6\)/,
    );
    const group: Step = { kind: 'concurrent', events: [setCall(0), { kind: 'revoke', client: 9 }] };
    expect(caseFitProblem(DEFAULT_FIXTURE, [group], setInterval)).toMatch(
      /^step 1 lane 2: client 9/,
    );
  });

  it("refuses a call of another operation's arguments (a create-once case read as set-interval)", () => {
    expect(caseFitProblem(DEFAULT_FIXTURE, [setCall(), invoiceCall], setInterval)).toMatch(
      /^step 2: the request names "customerId", which is no argument of set-interval \(automationId, expectedVersion, intervalMinutes\)/,
    );
  });
});
