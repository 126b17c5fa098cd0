/**
 * The generic invariants for `create-once` and `adjust-balance` in pass/fail pairs: a run the
 * model itself produced (must pass every invariant) and the same run with one defect a buggy
 * handler would leave (must fail, naming the invariant). `set-interval`'s pairs are in
 * `invariants.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent, CallRequest, Step } from '../../model/events.ts';
import type { OperationSpec, Result, Row } from '../../model/operation.ts';
import { adjustBalance } from '../../model/operations/adjust-balance.ts';
import { createOnce } from '../../model/operations/create-once.ts';
import { type Observed, outcome } from '../../model/outcome.ts';
import { initialState, toSnapshot } from '../../model/state.ts';
import { run } from '../../model/step.ts';
import type { Fixture, Receipt } from '../../model/world.ts';
import type { Observation, Trace } from '../../types/trace.ts';
import type { RunRecord } from '../run-record.ts';
import { checkInvariants } from './all-invariants.ts';
import { checkEffectsMatchReceipts, EFFECTS_MATCH_RECEIPTS } from './effects-match-receipts.ts';
import { checkReceiptsCountFresh, RECEIPTS_COUNT_FRESH } from './receipts-count-fresh.ts';
import { checkReplayMatchesFresh, REPLAY_MATCHES_FRESH } from './replay-matches-fresh.ts';

const fixtureOf = (spec: OperationSpec): Fixture => ({ ...spec.fixture, operation: spec.name });

const call = (client: number, request: CallRequest): CallEvent => ({
  kind: 'call',
  client,
  delivery: 'delivered',
  request,
});

/** The run the model itself produces for sequential `events`: the "ok" fixture. */
function modelRun(spec: OperationSpec, events: readonly CallEvent[]): RunRecord {
  const fixture = fixtureOf(spec);
  const { state, outcomes } = run(initialState(fixture, spec), events);
  const observations = events.map((event, step) => ({
    step,
    lane: 0,
    event,
    observed: outcomes[step] ?? { kind: 'notSent' as const },
  }));
  return { fixture, spec, steps: events, trace: { observations, snapshot: toSnapshot(state) } };
}

function changed(good: RunRecord, change: (t: Trace) => Trace): RunRecord {
  return { ...good, trace: change(good.trace) };
}

const observedAt = (index: number, observed: Observed) => (t: Trace) => ({
  ...t,
  observations: t.observations.map((o, i) => (i === index ? { ...o, observed } : o)),
});

const receiptResult = (requestId: string, result: Result) => (t: Trace) => ({
  ...t,
  snapshot: {
    ...t.snapshot,
    receipts: t.snapshot.receipts.map((r) => (r.requestId === requestId ? { ...r, result } : r)),
  },
});

const table = (name: string, rows: (rows: readonly Row[]) => readonly Row[]) => (t: Trace) => ({
  ...t,
  snapshot: { ...t.snapshot, [name]: rows((t.snapshot[name] ?? []) as readonly Row[]) },
});

describe('invariant checkers for create-once', () => {
  const events = [
    call(0, { requestId: 'r1', customerId: 1, amount: 500 }),
    call(0, { requestId: 'r2', customerId: 2, amount: 700 }),
    call(0, { requestId: 'r1', customerId: 1, amount: 500 }),
  ];
  const good = () => modelRun(createOnce, events);

  it('ok: the model’s own run (two invoices, one replay) breaks no invariant', () => {
    const g = good();
    expect(g.trace.snapshot.invoices).toHaveLength(2);
    expect(g.trace.observations[2]?.observed).toMatchObject({ kind: 'ok', replayed: true });
    expect(checkInvariants(g)).toEqual([]);
  });

  it('bad: an extra invoice without a receipt (a retry that inserted again)', () => {
    const bad = changed(
      good(),
      table('invoices', (rows) => [...rows, { id: 3, customerId: 1, amount: 500 }]),
    );
    expect(checkEffectsMatchReceipts(bad)?.invariant).toBe(EFFECTS_MATCH_RECEIPTS);
  });

  it('bad: a receipt without its invoice (the insert rolled back, the receipt stayed)', () => {
    const bad = changed(
      good(),
      table('invoices', (rows) => rows.filter((r) => r.id !== 1)),
    );
    expect(checkEffectsMatchReceipts(bad)?.invariant).toBe(EFFECTS_MATCH_RECEIPTS);
  });

  it('bad: a receipt whose stored result no fresh ok returned', () => {
    const bad = changed(good(), receiptResult('r1', { invoiceId: 2, customerId: 1, amount: 500 }));
    expect(checkEffectsMatchReceipts(bad)?.invariant).toBe(EFFECTS_MATCH_RECEIPTS);
  });

  it('bad: two fresh creates share one invoice id, and the other invoice has no receipt', () => {
    // Counted alone, two receipts and two invoices agree; only the ids show invoice 2 is orphaned.
    const shared = { invoiceId: 1, customerId: 2, amount: 700 };
    const bad = changed(good(), (t) =>
      receiptResult('r2', shared)(observedAt(1, outcome.fresh(shared))(t)),
    );
    expect(checkEffectsMatchReceipts(bad)?.invariant).toBe(EFFECTS_MATCH_RECEIPTS);
  });

  it('bad: a replay that returns another invoice than its fresh call', () => {
    const bad = changed(
      good(),
      observedAt(2, outcome.replayed({ invoiceId: 2, customerId: 1, amount: 500 })),
    );
    expect(checkReplayMatchesFresh(bad)?.invariant).toBe(REPLAY_MATCHES_FRESH);
  });

  it('bad: a create that reported an error kept its receipt and invoice', () => {
    const bad = changed(good(), observedAt(1, outcome.error('boom')));
    expect(checkReceiptsCountFresh(bad)?.invariant).toBe(RECEIPTS_COUNT_FRESH);
  });
});

describe('invariant checkers for create-once, with invoices in its fixture', () => {
  // `CreatedRows`: the fixture may start with created rows; they belong to no receipt.
  const started: Row = { id: 7, customerId: 2, amount: 900 };
  const fixture: Fixture = { ...fixtureOf(createOnce), invoices: [started] };
  const events = [
    call(0, { requestId: 'r1', customerId: 1, amount: 500 }),
    call(0, { requestId: 'r1', customerId: 1, amount: 500 }),
  ];
  const good = (): RunRecord => {
    const { state, outcomes } = run(initialState(fixture, createOnce), events);
    const observations = events.map((event, step) => ({
      step,
      lane: 0,
      event,
      observed: outcomes[step] ?? { kind: 'notSent' as const },
    }));
    return {
      fixture,
      spec: createOnce,
      steps: events,
      trace: { observations, snapshot: toSnapshot(state) },
    };
  };

  it('ok: the model’s own run (the fixture’s invoice and one created) breaks no invariant', () => {
    const g = good();
    expect(g.trace.snapshot.invoices).toEqual([started, { id: 8, customerId: 1, amount: 500 }]);
    expect(checkInvariants(g)).toEqual([]);
  });

  it('bad: an extra invoice without a receipt beside the fixture’s', () => {
    const bad = changed(
      good(),
      table('invoices', (rows) => [...rows, { id: 9, customerId: 1, amount: 500 }]),
    );
    expect(checkEffectsMatchReceipts(bad)?.invariant).toBe(EFFECTS_MATCH_RECEIPTS);
  });

  it('bad: a fresh create that names the fixture’s invoice, its own left without a receipt', () => {
    const named = { invoiceId: 7, customerId: 1, amount: 500 };
    const bad = changed(good(), (t) =>
      receiptResult(
        'r1',
        named,
      )(observedAt(0, outcome.fresh(named))(observedAt(1, outcome.replayed(named))(t))),
    );
    expect(checkEffectsMatchReceipts(bad)?.invariant).toBe(EFFECTS_MATCH_RECEIPTS);
  });
});

describe('invariant checkers for adjust-balance', () => {
  const events = [
    call(0, { requestId: 'r1', accountId: 1, delta: -300 }),
    call(0, { requestId: 'r2', accountId: 1, delta: 200 }),
    call(0, { requestId: 'r1', accountId: 1, delta: -300 }),
    call(1, { requestId: 'r3', accountId: 2, delta: -1000 }),
  ];
  const good = () => modelRun(adjustBalance, events);
  const balanceOf = (id: number, balance: number) =>
    table('accounts', (rows) => rows.map((r) => (r.id === id ? { ...r, balance } : r)));

  it('ok: the model’s own run breaks no invariant', () => {
    const g = good();
    expect(g.trace.snapshot.accounts).toEqual([
      { id: 1, workspace: 'team-a', balance: 900 },
      { id: 2, workspace: 'team-a', balance: 0 },
      { id: 20, workspace: 'team-b', balance: 1000 },
    ]);
    expect(checkInvariants(g)).toEqual([]);
  });

  it('bad: a balance changed without a receipt (the retry applied the debit again)', () => {
    const bad = changed(good(), balanceOf(1, 600));
    expect(checkEffectsMatchReceipts(bad)?.invariant).toBe(EFFECTS_MATCH_RECEIPTS);
  });

  it('bad: a balance changed on an account no call wrote to', () => {
    const bad = changed(good(), balanceOf(20, 700));
    expect(checkEffectsMatchReceipts(bad)?.invariant).toBe(EFFECTS_MATCH_RECEIPTS);
  });

  it('bad: a receipt without its effect (the update rolled back, the receipt stayed)', () => {
    const bad = changed(good(), balanceOf(2, 1000));
    expect(checkEffectsMatchReceipts(bad)?.invariant).toBe(EFFECTS_MATCH_RECEIPTS);
  });

  it('bad: a receipt whose stored result no fresh ok returned', () => {
    const bad = changed(good(), receiptResult('r1', { accountId: 1, balance: 900 }));
    expect(checkEffectsMatchReceipts(bad)?.invariant).toBe(EFFECTS_MATCH_RECEIPTS);
  });

  it('bad: a replay that returns the current balance instead of the stored one', () => {
    const bad = changed(good(), observedAt(2, outcome.replayed({ accountId: 1, balance: 900 })));
    expect(checkReplayMatchesFresh(bad)?.invariant).toBe(REPLAY_MATCHES_FRESH);
  });

  describe('two adjustments of one account in one concurrent step', () => {
    const a = call(0, { requestId: 'r1', accountId: 1, delta: -300 });
    const b = call(1, { requestId: 'r2', accountId: 1, delta: -200 });
    const steps: Step[] = [{ kind: 'concurrent', events: [a, b] }];
    const racing = (first: Observed, second: Observed, balance: number): RunRecord => {
      const fixture = fixtureOf(adjustBalance);
      const observations: Observation[] = [
        { step: 0, lane: 0, event: a, observed: first },
        { step: 0, lane: 1, event: b, observed: second },
      ];
      const receipts: Receipt[] = [
        { user: 'alice', requestId: 'r1', result: (first as { result: Result }).result },
        { user: 'bob', requestId: 'r2', result: (second as { result: Result }).result },
      ].map(({ user, requestId, result }) => ({
        workspace: 'team-a',
        user,
        tool: adjustBalance.tool,
        requestId,
        payload: { account: 1, delta: requestId === 'r1' ? -300 : -200 },
        result,
      }));
      const accounts = (adjustBalance.fixture.accounts as Row[]).map((r) =>
        r.id === 1 ? { ...r, balance } : r,
      );
      return {
        fixture,
        spec: adjustBalance,
        steps,
        trace: { observations, snapshot: { receipts, accounts } },
      };
    };

    it('ok: both applied, in either order (balances commute)', () => {
      expect(
        checkInvariants(
          racing(
            outcome.fresh({ accountId: 1, balance: 500 }),
            outcome.fresh({ accountId: 1, balance: 800 }),
            500,
          ),
        ),
      ).toEqual([]);
      expect(
        checkInvariants(
          racing(
            outcome.fresh({ accountId: 1, balance: 700 }),
            outcome.fresh({ accountId: 1, balance: 500 }),
            500,
          ),
        ),
      ).toEqual([]);
    });

    it('bad: a lost update, two receipts but the balance shows one debit', () => {
      const bad = racing(
        outcome.fresh({ accountId: 1, balance: 700 }),
        outcome.fresh({ accountId: 1, balance: 800 }),
        800,
      );
      expect(checkEffectsMatchReceipts(bad)?.invariant).toBe(EFFECTS_MATCH_RECEIPTS);
    });
  });
});
