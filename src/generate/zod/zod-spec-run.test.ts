/**
 * A spec whose fields `fieldsFromZod` derived, run through the generators and the model: the
 * outcomes an operation should give, for schemas a user writes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CallEvent, Event } from '../../model/events.ts';
import { flatten } from '../../model/flatten.ts';
import type { Observed } from '../../model/outcome.ts';
import { initialState } from '../../model/state.ts';
import { run } from '../../model/step.ts';
import { sequenceArbitrary } from '../sequence-arbitrary.ts';
import { fieldsFromZod } from './fields-from-zod.ts';
import { specOf } from './fixtures/spec-of.ts';

describe('a spec built with fieldsFromZod, run through the generators and the model', () => {
  const spec = specOf(
    'adjust-balance-zod-model',
    fieldsFromZod(
      z.object({
        accountId: z.number().int().positive(),
        delta: z
          .number()
          .int()
          .min(-1_000_000)
          .max(1_000_000)
          .refine((d) => d !== 0),
        currency: z.enum(['EUR', 'USD']),
        urgent: z.boolean(),
      }),
    ),
  );
  const fixture = { ...spec.fixture, operation: spec.name };

  it('answers a call, its retry, a reuse, an overdraft and each invalid field as the contract says', () => {
    const call = (requestId: string, args: object): CallEvent => ({
      kind: 'call',
      client: 0,
      delivery: 'delivered',
      request: { requestId, accountId: 1, delta: 5, currency: 'EUR', urgent: false, ...args },
    });
    const { outcomes } = run(initialState(fixture, spec), [
      call('a', {}),
      call('a', {}),
      call('a', { currency: 'USD' }),
      call('b', { delta: -5000 }),
      call('c', { delta: 0 }),
      call('d', { currency: 'eur' }),
      call('e', { accountId: '1' }),
      call('f', { urgent: 'yes' }),
      call('g', { urgent: true }),
    ]);
    expect(outcomes.map(label)).toEqual([
      'ok fresh',
      'ok replayed',
      'keyReuse',
      'refused insufficient',
      'invalid delta',
      'invalid currency',
      'invalid accountId',
      'invalid urgent',
      'ok fresh',
    ]);
  });

  it('generates sequences whose outcomes include every field invalid, replays and refusals', () => {
    const samples = fc.sample(
      sequenceArbitrary(fixture, {
        spec,
        stepsMax: 20,
        races: true,
        recreate: true,
      }),
      {
        seed: 11,
        numRuns: 200,
      },
    );
    const events: Event[] = samples.flatMap((s) => flatten(s).map((p) => p.event));
    const calls = events.filter((e): e is CallEvent => e.kind === 'call');
    const sent = (field: string) => new Set(calls.map((c) => c.request[field]));
    for (const v of ['EUR', 'USD']) expect(sent('currency')).toContain(v);
    for (const v of [true, false]) expect(sent('urgent')).toContain(v);
    const labels = new Set(
      samples.flatMap((s) =>
        run(
          initialState(fixture, spec),
          flatten(s).map((p) => p.event),
        ).outcomes.map(label),
      ),
    );
    for (const expected of [
      'ok fresh',
      'ok replayed',
      'refused forbidden',
      'refused insufficient',
      'invalid requestId',
      'invalid accountId',
      'invalid delta',
      'invalid currency',
      'invalid urgent',
    ])
      expect(labels, expected).toContain(expected);
  });
});

/**
 * `adjust-balance` with `fields`, every one in the payload, registered under `name` so a fixture
 * can name it.
 */
function label(o: Observed): string {
  if (o.kind === 'ok') return o.replayed ? 'ok replayed' : 'ok fresh';
  if (o.kind === 'refused') return `refused ${o.reason}`;
  if (o.kind === 'invalid') return `invalid ${o.field}`;
  return o.kind;
}
