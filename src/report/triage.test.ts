/**
 * The triage line: each mapping shown a failure it names and, where a switch is already declared
 * or explains nothing, the pointer to the contract instead. Built cases, no runs.
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent, Step } from '../model/events.ts';
import { createOnce } from '../model/operations/create-once.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import type { Observed } from '../model/outcome.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import type { Failure } from '../types/verdict.ts';
import type { ReadableCase } from './readable-case.ts';
import { TRIAGE_RULES, type TriageRule, triageLine, triageOf } from './triage.ts';

const send = (requestId: string, expectedVersion = 1, client = 0): CallEvent => ({
  kind: 'call',
  client,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion, intervalMinutes: 30 },
});
const fresh: Observed = {
  kind: 'ok',
  replayed: false,
  result: { id: 1, intervalMinutes: 30, version: 2 },
};
const replayed: Observed = { ...fresh, replayed: true };
const conflict: Observed = { kind: 'refused', reason: 'conflict' };
const wrong = (
  step: number,
  lane: number,
  event: CallEvent,
  expected: Observed,
  actual: Observed,
): Failure => ({
  kind: 'outcome',
  step,
  lane,
  event,
  expected,
  actual,
});
const sequential = (
  steps: Step[],
  failures: Failure[],
  more: Partial<ReadableCase> = {},
): ReadableCase => ({
  handlerName: 'h',
  mode: 'sequential',
  fixture: DEFAULT_FIXTURE,
  spec: setIntervalSpec,
  steps,
  failures,
  ...more,
});

describe('triageOf', () => {
  it('a replay after a move, answered from the store: policy.idempotencyFirst', () => {
    const steps: Step[] = [
      send('r0'),
      { kind: 'move', resourceId: 1, workspace: 'team-b' },
      send('r0'),
    ];
    const t = triageOf(
      sequential(steps, [
        wrong(2, 0, send('r0'), { kind: 'refused', reason: 'unavailable' }, replayed),
      ]),
    );
    expect(t).toEqual({
      change: { kind: 'policy', name: 'idempotencyFirst', value: true },
      when: 'your library answers stored keys (and claims new ones) before checking access',
      at: { step: 2, lane: 0 },
    });
    expect(triageLine(t)).toBe(
      'If you believe the handler is right: if your library answers stored keys (and claims new ones) before checking access, declare policy.idempotencyFirst: true in its plugin (docs/contract.md, Declared policies).',
    );
  });

  it('a new key claimed while the store fails, where the contract refuses: policy.idempotencyFirst', () => {
    const steps: Step[] = [{ kind: 'storeFail' }, send('r0', 2)];
    const error: Observed = { kind: 'error', message: 'could not save the in-progress record' };
    const t = triageOf(sequential(steps, [wrong(1, 0, send('r0', 2), conflict, error)]));
    expect(t.change).toMatchObject({ name: 'idempotencyFirst' });
  });

  it('a refusal stored and replayed: policy.storesRefusals', () => {
    // r0 expects v2 and is refused; r1 moves the row to v2; r0 again is due a fresh write.
    const steps: Step[] = [send('r0', 2), send('r1', 1, 1), send('r0', 2)];
    const freshV3: Observed = {
      kind: 'ok',
      replayed: false,
      result: { id: 1, intervalMinutes: 30, version: 3 },
    };
    const t = triageOf(sequential(steps, [wrong(2, 0, send('r0', 2), freshV3, conflict)]));
    expect(t.change).toEqual({ kind: 'policy', name: 'storesRefusals', value: true });
    expect(triageLine(t)).toContain(
      'if your library stores a refusal under its key and replays it, declare policy.storesRefusals: true',
    );
  });

  it("an in-flight duplicate refused with a conflict: policy.inFlightDuplicate: 'conflict'", () => {
    const group: Step = { kind: 'concurrent', events: [send('r0'), send('r0')] };
    const c: ReadableCase = {
      ...sequential([group], [wrong(0, 1, send('r0'), replayed, conflict)]),
      mode: 'scheduled',
    };
    const t = triageOf(c);
    expect(t.change).toEqual({ kind: 'policy', name: 'inFlightDuplicate', value: 'conflict' });
    expect(triageLine(t)).toContain("declare policy.inFlightDuplicate: 'conflict' in its plugin");
    // Declared already: the switch explains nothing new, and the line points to the contract.
    const declared = triageOf({
      ...c,
      fixture: {
        ...DEFAULT_FIXTURE,
        policy: { inFlightDuplicate: 'conflict' },
      } as ReadableCase['fixture'],
    });
    expect(declared.change).toEqual({ kind: 'contract', rule: '7' });
    // In sequential mode a group runs in lane order: no duplicate is in flight there.
    expect(triageOf({ ...c, mode: 'sequential' }).change).toEqual({ kind: 'contract', rule: '7' });
  });

  it("a key held by a crashed call's claim: policy.claimExpiry", () => {
    const c: ReadableCase = {
      ...sequential([send('r0'), send('r0')], [wrong(1, 0, send('r0'), fresh, conflict)]),
      mode: 'scheduled',
      detail: {
        mode: 'scheduled',
        entries: [{ step: 0, lane: 0, point: 'statement', grant: 'crash', sql: 'BEGIN IMMEDIATE' }],
      },
    };
    const t = triageOf(c);
    expect(t.change).toMatchObject({ kind: 'policy', name: 'claimExpiry', value: 'never' });
    expect(triageLine(t)).toContain(
      "declare policy.claimExpiry: 'never' (or the record's lifetime in ms) in its plugin",
    );
  });

  it("a created id the model predicted otherwise: the spec's created.ids", () => {
    const invoice = (invoiceId: number): Observed => ({
      kind: 'ok',
      replayed: false,
      result: { invoiceId, customerId: 1, amount: 5 },
    });
    const call: CallEvent = {
      kind: 'call',
      client: 0,
      delivery: 'delivered',
      request: { requestId: 'r0', customerId: 1, amount: 5 },
    };
    const fixture = { ...createOnce.fixture, operation: 'create-once' } as ReadableCase['fixture'];
    const t = triageOf(
      sequential([call], [wrong(0, 0, call, invoice(1), invoice(9001))], {
        fixture,
        spec: createOnce,
      }),
    );
    expect(t.change).toEqual({ kind: 'spec', field: 'created.ids', value: 'opaque' });
    expect(triageLine(t)).toBe(
      "If you believe the handler is right: if your server assigns created ids by a rule of its own, set the operation spec's created.ids to 'opaque'.",
    );
    // Another amount as well: not an id the model guessed, but a wrong result.
    const other: Observed = {
      kind: 'ok',
      replayed: false,
      result: { invoiceId: 9001, customerId: 1, amount: 6 },
    };
    expect(
      triageOf(sequential([call], [wrong(0, 0, call, invoice(1), other)], { fixture })).change.kind,
    ).toBe('contract');
  });

  it('anything else: the rule in docs/contract.md, which no switch changes', () => {
    const t = triageOf(
      sequential([send('r0'), send('r0')], [wrong(1, 0, send('r0'), replayed, conflict)]),
    );
    expect(t).toEqual({ change: { kind: 'contract', rule: '7' } });
    expect(triageLine(t)).toBe(
      'If you believe the handler is right: no policy switch explains this failure; rule 7 in docs/contract.md says what the contract asks and why.',
    );
    const invariantOnly = triageOf(
      sequential(
        [send('r0')],
        [{ kind: 'invariant', invariant: 'receipts equal fresh ok outcomes', message: 'x' }],
      ),
    );
    expect(triageLine(invariantOnly)).toBe(
      'If you believe the handler is right: no policy switch explains this failure; the invariants in docs/contract.md say what the contract asks and why.',
    );
  });

  it('an error replayed under its key names storesErrors, and a new switch is one more rule', () => {
    const error: Observed = { kind: 'error', message: 'boom' };
    const steps: Step[] = [send('r0'), send('r0')];
    const c = sequential(steps, [wrong(1, 0, send('r0'), fresh, error)], {
      answers: [{ step: 0, lane: 0, observed: error }],
    });
    expect(triageOf(c).change).toMatchObject({ name: 'storesErrors', value: true });
    const withoutIt = TRIAGE_RULES.filter(
      (r) => !(r.change.kind === 'policy' && r.change.name === 'storesErrors'),
    );
    expect(triageOf(c, withoutIt).change.kind).toBe('contract');
    const mine: TriageRule = {
      change: { kind: 'policy', name: 'myLibrarySwitch', value: true },
      when: 'your library does this',
      explains: (call) => call.actual.kind === 'error',
    };
    expect(triageOf(c, [mine, ...withoutIt]).change).toMatchObject({ name: 'myLibrarySwitch' });
  });
});
