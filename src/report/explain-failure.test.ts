/**
 * `explainFailure` names the contract rule each expected outcome stands for, and says which
 * invariant or which rows broke; `describeEvent` tells every event kind in plain words.
 */

import { describe, expect, it } from 'vitest';
import type { CallEvent } from '../model/events.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import { type Observed, outcome } from '../model/outcome.ts';
import { STORED_ERROR_MESSAGE } from '../model/step.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import type { Failure } from '../types/verdict.ts';
import { describeEvent, formatValue } from './describe-event.ts';
import { explainFailure } from './explain-failure.ts';

const call: CallEvent = {
  kind: 'call',
  client: 0,
  request: { requestId: 'r0', automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
  delivery: 'lostResponse',
  intent: 'retry',
};
const result = { id: 1, intervalMinutes: 30, version: 2 };
const mismatch = (expected: Observed, actual: Observed): Failure => ({
  kind: 'outcome',
  step: 2,
  lane: 0,
  event: call,
  expected,
  actual,
});

describe('explainFailure', () => {
  it.each<[Observed, string]>([
    [outcome.refused('forbidden'), '1'],
    [outcome.invalid('requestId'), '2'],
    [outcome.invalid('automationId'), '3'],
    [outcome.invalid('expectedVersion'), '3'],
    [outcome.invalid('intervalMinutes'), '4'],
    [outcome.refused('unavailable'), '6'],
    [outcome.replayed(result), '7'],
    [outcome.keyReuse(), '7'],
    [outcome.refused('conflict'), '8'],
    [outcome.error('x'), '10'],
    [outcome.fresh(result), '9–11'],
  ])('expected %j is rule %s', (expected, rule) => {
    expect(explainFailure(mismatch(expected, { kind: 'keyReuse' })).rule).toBe(rule);
  });

  it('explains a claim met by another payload as allowing both answers, not as a receipt', () => {
    const claimMet: Failure = {
      kind: 'outcome',
      step: 2,
      lane: 0,
      event: call,
      expected: outcome.keyReuse(),
      alsoAllowed: outcome.refused('conflict'),
      actual: outcome.refused('unavailable'),
    };
    const text = explainFailure(claimMet).text;
    expect(text).toContain('in-progress claim');
    expect(text).toContain('keyReuse (the payload checked first) or refused(conflict)');
    expect(explainFailure(mismatch(outcome.keyReuse(), outcome.fresh(result))).text).toContain(
      'a receipt exists',
    );
  });

  it('explains an expected stored error as a replay (storesErrors), a store failure as rule 10', () => {
    const replay = explainFailure(
      mismatch(outcome.error(STORED_ERROR_MESSAGE), outcome.fresh(result)),
    );
    expect(replay.rule).toBe('7');
    expect(replay.text).toContain('policy storesErrors');
    expect(
      explainFailure(mismatch(outcome.error('receipt store unavailable'), outcome.fresh(result)))
        .rule,
    ).toBe('10');
  });

  it('says what was wrong with an ok: the flag, the stored result, an exception let through', () => {
    const fresh = outcome.fresh(result);
    expect(explainFailure(mismatch(outcome.replayed(result), fresh)).text).toContain(
      'replayed flag is missing',
    );
    expect(
      explainFailure(
        mismatch(outcome.replayed(result), outcome.replayed({ ...result, version: 3 })),
      ).text,
    ).toContain('different result than the one stored');
    // The exception leads: the rule's own text (a lookup order) is not the bug here.
    expect(explainFailure(mismatch(fresh, { kind: 'unexpected', message: 'boom' })).text).toMatch(
      /^the plugin let an exception through \(unexpected error\(boom\)\) where the contract gives ok\(fresh.*\): a plugin must map every exception to an outcome, and a service answer every request\. What the rule gives this call: /,
    );
    // So does an error answered where none is owed (a unique-key failure a race caused, say).
    expect(
      explainFailure(
        mismatch(fresh, outcome.error('duplicate key value violates unique constraint')),
      ).text,
    ).toMatch(
      /^the call answered error\(duplicate key value violates unique constraint\) where the contract gives ok\(fresh.*\): the contract answers error only when the receipt store fails\. What the rule gives this call: /,
    );
  });

  it('names the invariant, and the rows and receipts that differ', () => {
    expect(
      explainFailure({
        kind: 'invariant',
        invariant: 'receipts equal fresh oks',
        message: '2 vs 1',
      }).text,
    ).toBe('invariant broken: receipts equal fresh oks (2 vs 1)');
    const text = explainFailure({
      kind: 'snapshot',
      differences: [
        { what: 'automation', id: 1 },
        { what: 'receipt', key: 'team-a\u0000alice\u0000set_interval.v1\u0000r0' },
      ],
    }).text;
    expect(text).toContain('automation 1, receipt alice@team-a/r0');
  });
});

describe('describeEvent', () => {
  it('tells a call as the person saw it', () => {
    expect(describeEvent(call, DEFAULT_FIXTURE, setIntervalSpec)).toBe(
      'alice@team-a retries r0: set automation 1 to 30 min expecting v1 — response lost (committed, reply dropped)',
    );
  });

  it('keeps invalid values unambiguous', () => {
    const bad = { ...call, intent: 'invalid' as const, delivery: 'delivered' as const };
    const text = describeEvent(
      {
        ...bad,
        request: {
          requestId: '',
          automationId: true,
          expectedVersion: Number.NaN,
          intervalMinutes: '5',
        },
      },
      DEFAULT_FIXTURE,
      setIntervalSpec,
    );
    expect(text).toBe(
      'alice@team-a sends request id "": set automation true to "5" expecting version NaN',
    );
    expect(formatValue('x'.repeat(70))).toMatch(/…" \(70 chars\)$/);
    expect(formatValue(2 ** 60)).toContain('unsafe integer');
  });

  it('tells every world event', () => {
    const f = DEFAULT_FIXTURE;
    expect(describeEvent({ kind: 'revoke', client: 1 }, f, setIntervalSpec)).toBe(
      'bob@team-a loses the automation:write scope',
    );
    expect(
      describeEvent({ kind: 'move', resourceId: 1, workspace: 'team-b' }, f, setIntervalSpec),
    ).toBe('automation 1 moves to workspace team-b');
    expect(describeEvent({ kind: 'storeFail' }, f, setIntervalSpec)).toContain(
      'receipt store starts failing',
    );
    expect(describeEvent({ kind: 'clockAdvance', ms: 5_400_000 }, f, setIntervalSpec)).toBe(
      '90 min pass on the clock',
    );
    expect(describeEvent({ kind: 'clockAdvance', ms: 1500 }, f, setIntervalSpec)).toBe(
      '1500 ms pass on the clock',
    );
  });
});

describe('explainFailure on a concurrent run', () => {
  const op = (id: number, observed: Observed, expected?: Observed) => ({
    id,
    step: 0,
    lane: id,
    event: call,
    observed,
    invokedAt: 0,
    completedAt: 1,
    ...(expected ? { expected } : {}),
  });

  it('names the order that fitted, the call that could not follow, and its rule', () => {
    const e = explainFailure({
      kind: 'linearizability',
      verdict: 'illegal',
      longestPrefix: [op(0, outcome.fresh(result))],
      stuck: [op(1, outcome.refused('conflict'), outcome.replayed(result))],
    });
    expect(e.rule).toBe('7');
    expect(e.text).toContain(
      'the longest order that fits is step 1 lane 1; after it, step 1 lane 2 got refused(conflict) where the contract gives ok(replayed',
    );
  });

  it('says when the check stopped at a limit instead', () => {
    const e = explainFailure({
      kind: 'linearizability',
      verdict: 'unknown',
      longestPrefix: [],
      stuck: [],
      reason: 'budget of 100000 states',
    });
    expect(e.rule).toBeUndefined();
    expect(e.text).toContain('stopped before a verdict (budget of 100000 states)');
  });
});
