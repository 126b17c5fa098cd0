/**
 * Laws of the pure model, stated independently of how step.ts computes them, over generated
 * sequences. The model is the spec, so it gets its own properties. (The invariant checkers used
 * here are shown failing on bad traces in src/check/invariants/invariants.test.ts.)
 */
import { test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { checkInvariants } from '../src/check/invariants/all-invariants.ts';
import { sequenceArbitrary } from '../src/generate/sequence-arbitrary.ts';
import type { CallEvent, Event, Step } from '../src/model/events.ts';
import { flatten } from '../src/model/flatten.ts';
import { setInterval as setIntervalSpec } from '../src/model/operations/set-interval.ts';
import { type Observed, sameOutcome } from '../src/model/outcome.ts';
import { initialState, type ModelState, toSnapshot } from '../src/model/state.ts';
import { step } from '../src/model/step.ts';
import { DEFAULT_FIXTURE, WRITE_SCOPE } from '../src/model/world.ts';

const sequences = sequenceArbitrary(DEFAULT_FIXTURE, {
  spec: setIntervalSpec,
  stepsMax: 25,
  races: true,
  recreate: true,
});
const events = (steps: readonly Step[]): Event[] => flatten(steps).map((p) => p.event);

/** Steps the model through `steps`, returning every transition. */
function walk(
  steps: readonly Step[],
  from: ModelState = initialState(DEFAULT_FIXTURE, setIntervalSpec),
) {
  const out: { before: ModelState; after: ModelState; event: Event; outcome?: Observed }[] = [];
  let state = from;
  for (const event of events(steps)) {
    const t = step(state, event);
    out.push({
      before: state,
      after: t.state,
      event,
      ...(t.outcome ? { outcome: t.outcome } : {}),
    });
    state = t.state;
  }
  return out;
}

const original: CallEvent = {
  kind: 'call',
  client: 0,
  delivery: 'lostResponse',
  intent: 'new',
  request: { requestId: 'law-1', automationId: 1, expectedVersion: 1, intervalMinutes: 45 },
};

describe('model laws', () => {
  test.prop([sequences])(
    'a retry after a lost response replays the original result, unless access was lost',
    (middle) => {
      const first = step(initialState(DEFAULT_FIXTURE, setIntervalSpec), original);
      expect(first.outcome).toEqual({
        kind: 'ok',
        replayed: false,
        result: { id: 1, intervalMinutes: 45, version: 2 },
      });
      const before = walk(middle, first.state).at(-1)?.after ?? first.state;
      const retry = step(before, { ...original, delivery: 'delivered', intent: 'retry' }).outcome;
      const alice = before.principals[0];
      const row = before.rows.get(1);
      if (!alice?.scopes.includes(WRITE_SCOPE))
        expect(retry).toEqual({ kind: 'refused', reason: 'forbidden' });
      else if (!row || row.workspace !== alice.workspace)
        expect(retry).toEqual({ kind: 'refused', reason: 'unavailable' });
      else
        expect(retry).toEqual({
          kind: 'ok',
          replayed: true,
          result: { id: 1, intervalMinutes: 45, version: 2 },
        });
    },
  );

  test.prop([sequences])(
    'versions never decrease, except that a re-created id starts again at 1',
    (steps) => {
      for (const t of walk(steps)) {
        for (const [id, row] of t.after.rows) {
          const old = t.before.rows.get(id);
          if (old && t.event.kind !== 'recreate')
            expect(row.version).toBeGreaterThanOrEqual(old.version as number);
          if (!old) expect(row.version).toBe(1);
        }
      }
    },
  );

  test.prop([sequences])(
    'only a fresh ok writes: key reuse, refusals, errors and replays change nothing',
    (steps) => {
      for (const t of walk(steps)) {
        if (t.event.kind !== 'call') continue;
        const wrote = t.after.rows !== t.before.rows || t.after.receipts !== t.before.receipts;
        expect(wrote).toBe(t.outcome?.kind === 'ok' && !t.outcome.replayed);
      }
    },
  );

  test.prop([sequences])('the model satisfies every invariant checker', (steps) => {
    const transitions = walk(steps);
    const placed = flatten(steps);
    const observations = placed.flatMap((p, i) => {
      const o = transitions[i]?.outcome;
      return p.event.kind === 'call' && o
        ? [{ step: p.step, lane: p.lane, event: p.event, observed: o }]
        : [];
    });
    const last = transitions.at(-1)?.after ?? initialState(DEFAULT_FIXTURE, setIntervalSpec);
    expect(
      checkInvariants({
        spec: setIntervalSpec,
        fixture: DEFAULT_FIXTURE,
        steps,
        trace: { observations, snapshot: toSnapshot(last) },
      }),
    ).toEqual([]);
  });

  test.prop([sequences])(
    'step is deterministic: the same events give the same outcomes',
    (steps) => {
      const a = walk(steps);
      const b = walk(steps);
      a.forEach((t, i) => {
        const u = b[i];
        if (t.outcome && u?.outcome) expect(sameOutcome(t.outcome, u.outcome)).toBe(true);
      });
      expect(toSnapshot(a.at(-1)?.after ?? initialState(DEFAULT_FIXTURE, setIntervalSpec))).toEqual(
        toSnapshot(b.at(-1)?.after ?? initialState(DEFAULT_FIXTURE, setIntervalSpec)),
      );
    },
  );

  test.prop([sequences])(
    'generated sequences are valid data: every call names a known client',
    (steps) => {
      for (const e of events(steps))
        if (e.kind === 'call') expect(DEFAULT_FIXTURE.principals[e.client]).toBeDefined();
    },
  );
});
