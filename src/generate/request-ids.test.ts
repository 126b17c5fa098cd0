/**
 * Request ids of new intents: each shape makes an id of its class, every new intent's id is
 * fresh as a string for its client (so `R0` after `r0` is a new intent, never a retry), and an
 * excluded class is never minted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CallEvent, Step } from '../model/events.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import type { InputClass } from '../types/input-coverage.ts';
import { requestIdClasses } from './input-classes.ts';
import { SHAPE_CLASS, shapedId, UNUSUAL_ID_SHAPES } from './request-ids.ts';
import { sequenceArbitrary } from './sequence-arbitrary.ts';

const calls = (steps: readonly Step[]): CallEvent[] =>
  steps
    .flatMap((s) => (s.kind === 'concurrent' ? s.events : [s]))
    .filter((e): e is CallEvent => e.kind === 'call');

describe('request id shapes', () => {
  it('each make an id of their class', () => {
    const sent = ['r0', 'aB1'];
    for (const shape of UNUSUAL_ID_SHAPES)
      for (let n = 2; n < 12; n++) {
        const id = shapedId({ shape, pick: n }, n, sent, new Set(sent), new Set());
        expect(id, `${shape} ${n}`).toBeDefined();
        expect(requestIdClasses(id, sent), `${shape} ${id}`).toContain(SHAPE_CLASS[shape]);
      }
  });

  it('make nothing that is taken, or in an excluded class', () => {
    expect(shapedId({ shape: 'case twin', pick: 0 }, 1, [], new Set(), new Set())).toBeUndefined();
    expect(
      shapedId({ shape: 'case twin', pick: 0 }, 1, ['r0'], new Set(['r0', 'R0']), new Set()),
    ).toBeUndefined();
    expect(
      shapedId(
        { shape: 'length 1', pick: 3 },
        0,
        [],
        new Set(),
        new Set(['requestId _ or - at an edge']),
      ),
    ).toBeUndefined();
  });
});

describe('new intents in generated sequences', () => {
  const sample = (exclude: InputClass[] = []) =>
    fc.sample(
      sequenceArbitrary(DEFAULT_FIXTURE, {
        spec: setIntervalSpec,
        stepsMax: 20,
        races: true,
        recreate: true,
        excludeInputClasses: exclude,
      }),
      { numRuns: 300, seed: 42 },
    );

  it('carry an id fresh as a string for their client; ids that differ only in case do occur', () => {
    let twins = 0;
    for (const steps of sample()) {
      const used = DEFAULT_FIXTURE.principals.map(() => new Set<unknown>());
      for (const call of calls(steps)) {
        const mine = used[call.client] as Set<unknown>;
        const id = call.request.requestId;
        if (call.intent === 'new') {
          expect(mine.has(id), `${String(id)} sent again as a new intent`).toBe(false);
          const lower = typeof id === 'string' ? id.toLowerCase() : undefined;
          if ([...mine].some((m) => typeof m === 'string' && m.toLowerCase() === lower)) twins++;
        }
        mine.add(id);
      }
    }
    expect(twins).toBeGreaterThan(10);
  });

  it('never carry an id in an excluded class', () => {
    const excluded: InputClass[] = [
      'requestId differs only in case from an earlier one',
      'requestId length 37',
      'requestId _ or - at an edge',
    ];
    for (const steps of sample(excluded)) {
      const sent = DEFAULT_FIXTURE.principals.map((): string[] => []);
      for (const call of calls(steps)) {
        const mine = sent[call.client] as string[];
        const id = call.request.requestId;
        const classes = requestIdClasses(id, mine);
        expect(
          classes.filter((c) => excluded.includes(c)),
          String(id),
        ).toEqual([]);
        if (typeof id === 'string') mine.push(id);
      }
    }
  });
});
