/**
 * The search against brute force on tiny histories: every order of every allowed subset,
 * judged by `witnessProblem`. Histories are random (calls, world events, lost calls, touching and
 * overlapping intervals, all policies) with outcomes from a random serial run, one of them often
 * replaced, so both verdicts come up. This is the test that catches an unsound memo key or an
 * over-eager pruning rule.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../model/events.ts';
import type { History, HistoryEntry } from '../../model/history.ts';
import { type Observed, outcome } from '../../model/outcome.ts';
import type { PolicyDeclaration } from '../../model/policy.ts';
import { initialState, type ModelState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { checkHistory } from './check-history.ts';
import { witnessProblem } from './witness.ts';

const eventArb: fc.Arbitrary<Event> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('call' as const),
      client: fc.integer({ min: 0, max: 2 }),
      request: fc.record({
        requestId: fc.constantFrom('a', 'b'),
        automationId: fc.constantFrom(1, 20),
        expectedVersion: fc.integer({ min: 1, max: 3 }),
        intervalMinutes: fc.constantFrom(30, 45),
      }),
      delivery: fc.constantFrom('delivered' as const, 'delivered' as const, 'lostRequest' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Event>(
      { kind: 'move', automationId: 1, workspace: 'team-b' },
      { kind: 'move', automationId: 1, workspace: 'team-a' },
      { kind: 'revoke', client: 0 },
      { kind: 'restore', client: 0 },
      { kind: 'storeFail' },
      { kind: 'storeRestore' },
      { kind: 'delete', automationId: 1 },
      { kind: 'recreate', automationId: 1, workspace: 'team-a' },
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
  { inFlightDuplicate: 'conflict' as const },
);

const caseArb: fc.Arbitrary<Case> = fc.record({
  events: fc.array(eventArb, { minLength: 1, maxLength: 6 }),
  times: fc.array(
    fc.tuple(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 6 }), fc.nat(9)),
    { minLength: 6, maxLength: 6 },
  ),
  serial: fc.array(fc.nat(), { minLength: 6, maxLength: 6 }),
  swap: fc.option(fc.tuple(fc.nat(5), fc.nat(outcomes.length - 1)), { nil: undefined }),
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
  const initial = initialState({ ...DEFAULT_FIXTURE, policy: c.policy });
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
    if (roll === 0) return base; // completion and outcome unknown
    let observed = seen.get(id) ?? { kind: 'notSent' as const };
    if (c.swap && c.swap[0] === id) observed = outcomes[c.swap[1]] ?? observed;
    return { ...base, completedAt: invokedAt + length, observed };
  });
  return { initial, history };
}

/** Whether some order of some allowed subset is a linearisation. */
function bruteForce(initial: ModelState, history: History): boolean {
  const optional = history.filter(
    (e) => e.event.kind === 'call' && e.completedAt === undefined && e.observed === undefined,
  );
  for (let mask = 0; mask < 1 << optional.length; mask++) {
    const left = new Set(optional.filter((_, i) => (mask & (1 << i)) === 0).map((e) => e.id));
    const ids = history.map((e) => e.id).filter((id) => !left.has(id));
    if (permutations(ids).some((order) => witnessProblem(initial, history, order) === undefined))
      return true;
  }
  return false;
}

function permutations(ids: number[]): number[][] {
  if (ids.length <= 1) return [ids];
  return ids.flatMap((id, i) =>
    permutations([...ids.slice(0, i), ...ids.slice(i + 1)]).map((rest) => [id, ...rest]),
  );
}

describe('checkHistory agrees with brute force', () => {
  it('on tiny random histories', () => {
    let illegal = 0;
    fc.assert(
      fc.property(caseArb, fc.boolean(), (c, partition) => {
        const { initial, history } = sample(c);
        const expected = bruteForce(initial, history);
        const result = checkHistory(initial, history, { partition });
        expect(result.verdict).toBe(expected ? 'ok' : 'illegal');
        if (!expected) illegal++;
      }),
      { numRuns: 600 },
    );
    expect(illegal).toBeGreaterThan(30);
  });
});
