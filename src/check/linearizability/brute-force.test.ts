/**
 * The search against brute force on tiny histories: a plain depth-first search over every
 * order real time allows, with no memo and no reductions. Histories are random (calls, world events, lost calls, touching and
 * overlapping intervals, all policies) with outcomes from a random serial run, one of them often
 * replaced, so both verdicts come up. This is the test that catches an unsound memo key or an
 * over-eager pruning rule.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../model/events.ts';
import type { History, HistoryEntry } from '../../model/history.ts';
import { setInterval as setIntervalSpec } from '../../model/operations/set-interval.ts';
import { type Observed, outcome, sameOutcome } from '../../model/outcome.ts';
import type { PolicyDeclaration } from '../../model/policy.ts';
import { initialState, type ModelState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { checkHistory } from './check-history.ts';
import { inFlightAnswers } from './in-flight.ts';

const eventArb: fc.Arbitrary<Event> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('call' as const),
      client: fc.integer({ min: 0, max: 2 }),
      request: fc.record({
        requestId: fc.constantFrom('a', 'b'),
        automationId: fc.constantFrom(1, 2, 20),
        expectedVersion: fc.integer({ min: 1, max: 3 }),
        intervalMinutes: fc.constantFrom(30, 45),
      }),
      delivery: fc.constantFrom('delivered' as const, 'delivered' as const, 'lostRequest' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Event>(
      { kind: 'move', resourceId: 1, workspace: 'team-b' },
      { kind: 'move', resourceId: 1, workspace: 'team-a' },
      { kind: 'revoke', client: 0 },
      { kind: 'restore', client: 0 },
      { kind: 'storeFail' },
      { kind: 'storeRestore' },
      { kind: 'delete', resourceId: 1 },
      { kind: 'recreate', resourceId: 1, workspace: 'team-a' },
    ),
  },
);

const outcomes: Observed[] = [
  outcome.fresh({ id: 1, intervalMinutes: 30, version: 2 }),
  outcome.replayed({ id: 1, intervalMinutes: 30, version: 2 }),
  outcome.refused('conflict'),
  outcome.refused('unavailable'),
  outcome.keyReuse(),
];

const policyArb: fc.Arbitrary<PolicyDeclaration> = fc.constantFrom(
  {},
  { idempotencyFirst: true },
  { storesRefusals: true },
  { storesErrors: true },
  { inFlightDuplicate: 'conflict' as const },
  // Visible claims without in-flight conflicts: only a mismatched keyReuse may be in flight.
  { claimExpiry: 'never' as const, idempotencyFirst: true },
);

const caseArb: fc.Arbitrary<Case> = fc.record({
  events: fc.array(eventArb, { minLength: 1, maxLength: 8 }),
  times: fc.array(
    fc.tuple(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 6 }), fc.nat(9)),
    { minLength: 8, maxLength: 8 },
  ),
  serial: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
  swap: fc.option(fc.tuple(fc.nat(7), fc.nat(outcomes.length - 1)), { nil: undefined }),
  policy: policyArb,
});

/** One generated case. */
interface Case {
  readonly events: Event[];
  readonly times: [number, number, number][];
  readonly serial: number[];
  readonly swap: [number, number] | undefined;
  readonly policy: PolicyDeclaration;
}

/** A history from a random serial run: outcomes as the model gave them, intervals at random. */
function sample(c: Case): { initial: ModelState; history: History } {
  const initial = initialState({ ...DEFAULT_FIXTURE, policy: c.policy }, setIntervalSpec);
  const order = c.events
    .map((_, i) => i)
    .sort((a, b) => (c.serial[a] ?? 0) - (c.serial[b] ?? 0) || a - b);
  const seen = new Map<number, Observed | undefined>();
  let state = initial;
  for (const i of order) {
    const t = step(state, c.events[i] as Event);
    state = t.state;
    seen.set(i, t.outcome);
  }
  const history: HistoryEntry[] = c.events.map((event, id) => {
    const [invokedAt, length, roll] = c.times[id] ?? [0, 0, 0];
    const base = { id, client: id, event, invokedAt };
    if (event.kind !== 'call') return { ...base, completedAt: invokedAt + length };
    if (roll < 3) return base; // completion and outcome unknown
    if (roll === 3) return { ...base, completedAt: invokedAt + length }; // outcome not recorded
    let observed = seen.get(id) ?? { kind: 'notSent' as const };
    if (c.swap && c.swap[0] === id) observed = outcomes[c.swap[1]] ?? observed;
    return { ...base, completedAt: invokedAt + length, observed };
  });
  return { initial, history };
}

/**
 * Whether some order of some allowed subset is a linearisation: plain depth-first search over
 * every entry that real time allows next, with no memo and no reductions. A lost call may be
 * placed or left out; an in-flight answer may be read either way.
 */
function bruteForce(initial: ModelState, history: History): boolean {
  const inFlight = inFlightAnswers(initial, history);
  const optional = (e: HistoryEntry) =>
    e.event.kind === 'call' && e.completedAt === undefined && e.observed === undefined;
  const search = (left: readonly HistoryEntry[], state: ModelState): boolean => {
    if (left.every(optional)) return true;
    return left.some((e) => {
      const blocked = left.some(
        (f) => f !== e && f.completedAt !== undefined && f.completedAt < e.invokedAt,
      );
      if (blocked) return false;
      const rest = left.filter((f) => f !== e);
      const t = step(state, e.event);
      const expected = e.event.kind === 'call' ? e.observed : undefined;
      const fitted = !expected || (t.outcome !== undefined && sameOutcome(t.outcome, expected));
      if (fitted && search(rest, t.state)) return true;
      return inFlight.has(e.id) && search(rest, state);
    });
  };
  return search(history, initial);
}

describe('checkHistory agrees with brute force', () => {
  it('on tiny random histories', () => {
    let illegal = 0;
    fc.assert(
      fc.property(caseArb, fc.boolean(), fc.constantFrom(1, 2, 512), (c, partition, horizon) => {
        const { initial, history } = sample(c);
        const expected = bruteForce(initial, history);
        const result = checkHistory(initial, history, { partition, horizonFrames: horizon });
        expect(result.verdict).toBe(expected ? 'ok' : 'illegal');
        if (!expected) illegal++;
      }),
      { numRuns: 2000 },
    );
    expect(illegal).toBeGreaterThan(100);
  });
});
