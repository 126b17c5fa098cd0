/**
 * Sequences for operations other than `set-interval`, generated from their specs alone: every
 * event kind the spec allows, retries, reuses, races, boundary and invalid values of each field
 * turn up; every call carries exactly the spec's fields; and the model, run over the samples,
 * gives every outcome the operation can give. Each expectation counts over a few hundred
 * samples, so a generator that stopped making one kind fails here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CallEvent, Event, Step } from '../model/events.ts';
import { flatten } from '../model/flatten.ts';
import type { OperationSpec } from '../model/operation.ts';
import { adjustBalance } from '../model/operations/adjust-balance.ts';
import { createOnce } from '../model/operations/create-once.ts';
import * as registry from '../model/operations/index.ts';
import type { Observed } from '../model/outcome.ts';
import { initialState } from '../model/state.ts';
import { run } from '../model/step.ts';
import { fieldClassNames } from './field-classes.ts';
import { fieldClasses } from './input-classes.ts';
import { sequenceArbitrary } from './sequence-arbitrary.ts';

/** Each operation, with the outcomes it has beyond the generic ones. */
const OPERATIONS: readonly [string, OperationSpec, readonly string[]][] = [
  [createOnce.name, createOnce, []],
  [adjustBalance.name, adjustBalance, ['refused insufficient']],
];

const events = (steps: readonly Step[]): Event[] => flatten(steps).map((p) => p.event);
const calls = (steps: readonly Step[]): CallEvent[] =>
  events(steps).filter((e): e is CallEvent => e.kind === 'call');

/** An outcome as a label: `ok fresh`, `refused forbidden`, `invalid amount`, … */
function label(o: Observed): string {
  if (o.kind === 'ok') return o.replayed ? 'ok replayed' : 'ok fresh';
  if (o.kind === 'refused') return `refused ${o.reason}`;
  if (o.kind === 'invalid') return `invalid ${o.field}`;
  return o.kind;
}

describe.each(OPERATIONS)('sequences of %s', (_, spec, extraOutcomes) => {
  const fixture = { ...spec.fixture, operation: spec.name };
  const samples = fc.sample(
    sequenceArbitrary(fixture, { spec: spec, stepsMax: 20, races: true, recreate: true }),
    { seed: 7, numRuns: 300 },
  );
  const all = samples.flatMap(events);
  const allCalls = samples.flatMap(calls);

  it('contain every world event the spec allows, retries, reuses and races', () => {
    const kinds = new Set(all.map((e) => e.kind));
    for (const kind of ['revoke', 'restore', 'move', 'delete', 'recreate', 'storeFail'])
      expect(kinds, kind).toContain(kind);
    const intents = new Set(allCalls.map((c) => c.intent));
    for (const intent of ['new', 'retry', 'reuse', 'invalid']) expect(intents).toContain(intent);
    const groups = samples.flat().filter((s) => s.kind === 'concurrent');
    expect(groups.length).toBeGreaterThan(50);
    const lanes = groups.map((g) => g.events.filter((e): e is CallEvent => e.kind === 'call'));
    const [a, b] = [0, 1];
    const identical = lanes.some((l) => l.length >= 2 && l[a]?.request === l[b]?.request);
    const mismatched = lanes.some(
      (l) =>
        l[a]?.request.requestId === l[b]?.request.requestId &&
        l[a]?.client === l[b]?.client &&
        l[b]?.intent === 'reuse',
    );
    const disjoint = lanes.some(
      (l) => l.length >= 2 && l[a]?.request[spec.targetField] !== l[b]?.request[spec.targetField],
    );
    const withWorld = groups.some((g) => g.events.some((e) => e.kind !== 'call'));
    expect({ identical, mismatched, disjoint, withWorld }).toEqual({
      identical: true,
      mismatched: true,
      disjoint: true,
      withWorld: true,
    });
    expect(allCalls.some((c) => c.delivery === 'lostRequest')).toBe(true);
    expect(allCalls.some((c) => c.delivery === 'lostResponse')).toBe(true);
  });

  it('carry exactly the spec fields in every call', () => {
    const names = ['requestId', ...spec.fields.map((f) => f.name)].sort();
    for (const call of allCalls) expect(Object.keys(call.request).sort()).toEqual(names);
  });

  it('target other workspaces and missing rows too, not only the own', () => {
    const targets = new Set(allCalls.map((c) => c.request[spec.targetField]));
    expect(targets).toContain(999);
    expect(targets).toContain(20);
  });

  it('reach every class of every field, boundaries and invalid values alike', () => {
    const reached = new Set<string>();
    for (const call of allCalls)
      for (const f of spec.fields)
        for (const c of fieldClasses(f.name, call.request[f.name], [], spec)) reached.add(c);
    const all = spec.fields.flatMap(fieldClassNames);
    expect(all.filter((c) => !reached.has(c))).toEqual([]);
  });

  it('give every outcome the operation has, in the model', () => {
    const seen = new Set<string>();
    for (const steps of samples)
      for (const o of run(initialState(fixture, spec), events(steps)).outcomes) seen.add(label(o));
    const expected = [
      'ok fresh',
      'ok replayed',
      'keyReuse',
      'refused forbidden',
      'refused unavailable',
      'error',
      'invalid requestId',
      ...spec.fields.map((f) => `invalid ${f.name}`),
      ...extraOutcomes,
    ];
    expect(expected.filter((o) => !seen.has(o))).toEqual([]);
    expect(seen).not.toContain('refused conflict');
  });
});

describe('a spec that disallows world events', () => {
  it('never gets them', () => {
    const spec: OperationSpec = {
      ...createOnce,
      name: 'create-once-static',
      events: { move: false, delete: false, recreate: false, revoke: false, storeFail: false },
    };
    const { registerOperation } = registry;
    registerOperation(spec);
    const fixture = { ...spec.fixture, operation: spec.name };
    const samples = fc.sample(
      sequenceArbitrary(fixture, { spec: spec, stepsMax: 20, races: true, recreate: true }),
      { seed: 3, numRuns: 100 },
    );
    const kinds = new Set(samples.flatMap(events).map((e) => e.kind));
    expect([...kinds]).toEqual(['call']);
  });
});
