/**
 * fast-check arbitraries for moves, weighted so that retries, key reuse and world events are
 * frequent enough to collide within a 20-step sequence. Pools are small on purpose: three
 * principals, a few automations, a handful of intervals.
 */
import fc from 'fast-check';
import type { Delivery } from '../model/events.ts';
import type { InvalidField } from '../model/outcome.ts';
import type { Fixture } from '../model/world.ts';
import { invalidValue } from './invalid-values.ts';
import type { Move, RaceShape } from './moves.ts';

/** Which kinds of move a sequence may contain. */
export interface MoveOptions {
  /** Include concurrent groups (sequential mode runs them in lane order). */
  readonly races: boolean;
  /** Include re-creation of deleted ids (the reference design's known limit). */
  readonly recreate: boolean;
}

const INTERVALS = [5, 30, 60, 1440];
const FIELDS: InvalidField[] = ['requestId', 'automationId', 'expectedVersion', 'intervalMinutes'];
const SHAPES: RaceShape[] = [
  'duplicate',
  'mismatch',
  'crossPrincipal',
  'sameVersion',
  'disjoint',
  'worldRace',
];

/** An arbitrary single move for `fixture`. */
export function moveArbitrary(fixture: Fixture, options: MoveOptions): fc.Arbitrary<Move> {
  const client = fc.nat({ max: fixture.principals.length - 1 });
  const target = fc.nat({ max: 9 });
  const interval = fc.oneof(
    { arbitrary: fc.constantFrom(...INTERVALS), weight: 4 },
    { arbitrary: fc.integer({ min: 5, max: 1440 }), weight: 1 },
  );
  // Cross-shrinking lets a lost request or response shrink to `delivered` when the loss does not
  // matter, so counterexamples show only the losses they need. It only clones the random source
  // while generating, so the generated sequences are the same with or without it.
  const delivery: fc.Arbitrary<Delivery> = fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constant<Delivery>('delivered'), weight: 6 },
    { arbitrary: fc.constant<Delivery>('lostResponse'), weight: 2 },
    { arbitrary: fc.constant<Delivery>('lostRequest'), weight: 1 },
  );
  const workspace = fc.nat({ max: fixture.workspaces.length - 1 });
  const pick = fc.nat({ max: 7 });

  const moves: fc.WeightedArbitrary<Move>[] = [
    {
      weight: 30,
      arbitrary: fc.record({
        kind: fc.constant('intent'),
        client,
        target,
        interval,
        version: fc.constantFrom('known', 'known', 'known', 'stale', 'ahead'),
        delivery,
      }),
    },
    { weight: 20, arbitrary: fc.record({ kind: fc.constant('retry'), client, pick, delivery }) },
    {
      weight: 7,
      arbitrary: fc.record({
        kind: fc.constant('reuse'),
        client,
        pick,
        change: fc.constantFrom('target', 'version', 'interval'),
        delivery,
      }),
    },
    {
      weight: 7,
      arbitrary: fc
        .record({ client, target, field: fc.constantFrom(...FIELDS) })
        .chain((m) =>
          invalidValue(m.field).map((value) => ({ kind: 'invalid' as const, ...m, value })),
        ),
    },
    {
      weight: 5,
      arbitrary: fc.record({ kind: fc.constant('scope'), client, granted: fc.boolean() }),
    },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('move'), target, workspace }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete'), target }) },
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('store'), failing: fc.boolean() }) },
  ];
  if (options.recreate)
    moves.push({
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant('recreate'), target, workspace }),
    });
  if (options.races) {
    moves.push({
      weight: 10,
      arbitrary: fc.record({
        kind: fc.constant('race'),
        shape: fc.constantFrom(...SHAPES),
        clients: fc.array(client, { minLength: 2, maxLength: 4 }),
        target,
        intervals: fc.array(fc.constantFrom(...INTERVALS), { minLength: 4, maxLength: 4 }),
        world: fc.constantFrom('move', 'delete', 'revoke'),
      }),
    });
  }
  // Likewise a race group, a retry or a world event may shrink to a plain new intent.
  return fc.oneof({ withCrossShrink: true }, ...moves);
}
