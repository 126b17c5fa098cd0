/**
 * fast-check arbitraries for moves, weighted so that retries, key reuse and world events are
 * frequent enough to collide within a 20-step sequence, and every input class
 * (`input-classes.ts`) turns up in a default run. Pools are small on purpose: a few principals,
 * a few automations, a handful of intervals.
 */
import fc from 'fast-check';
import type { Delivery } from '../model/events.ts';
import { type Fixture, type Principal, WRITE_SCOPE } from '../model/world.ts';
import type { InputClass } from '../types/input-coverage.ts';
import { edgeClasses, edgeField, edgeValue } from './edge-values.ts';
import { clientsOutside, numberClasses, principalClasses } from './input-classes.ts';
import type { Move, RaceShape } from './moves.ts';
import { idChoiceArbitrary } from './request-ids.ts';

/** Which kinds of move a sequence may contain. */
export interface MoveOptions {
  /** Include concurrent groups (sequential mode runs them in lane order). */
  readonly races: boolean;
  /** Include re-creation of deleted ids (the reference design's known limit). */
  readonly recreate: boolean;
  /**
   * Input classes not to aim at (default none): no request id, edge value or fixture principal
   * in them is drawn. For showing that a class is what catches a bug. A class reached without
   * aiming (`principal no scopes`, through a revoke) may still turn up.
   */
  readonly excludeInputClasses?: readonly InputClass[];
}

const INTERVALS = [5, 30, 60, 1440];
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
  const excluded = new Set(options.excludeInputClasses ?? []);
  const client = clientArbitrary(fixture, excluded);
  // Principals with the write scope: an edge value sent by another reaches nothing (rule 1
  // refuses first), and only they can lose the scope and have it back.
  const writer = clientArbitrary(fixture, excluded, (p) => p.scopes.includes(WRITE_SCOPE));
  const target = fc.nat({ max: 9 });
  const allowedInterval = (i: number) =>
    !numberClasses('intervalMinutes', i).some((c) => excluded.has(c));
  const intervals = INTERVALS.filter(allowedInterval);
  const interval = fc.oneof(
    { arbitrary: fc.constantFrom(...intervals), weight: 4 },
    { arbitrary: fc.integer({ min: 5, max: 1440 }).filter(allowedInterval), weight: 1 },
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
        id: idChoiceArbitrary(),
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
      weight: EDGE_WEIGHT,
      arbitrary: fc
        .record({ client: writer, target, cls: fc.constantFrom(...edgeClasses(excluded)) })
        .chain(({ cls, ...m }) =>
          edgeValue(cls, excluded).map((value) => ({
            kind: 'edge' as const,
            ...m,
            field: edgeField(cls),
            value,
          })),
        ),
    },
    {
      weight: 5,
      // Only a principal that holds the write scope can lose it and have it back.
      arbitrary: fc.record({ kind: fc.constant('scope'), client: writer, granted: fc.boolean() }),
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
        intervals: fc.array(fc.constantFrom(...intervals), { minLength: 4, maxLength: 4 }),
        world: fc.constantFrom('move', 'delete', 'revoke'),
      }),
    });
  }
  // Likewise a race group, a retry or a world event may shrink to a plain new intent.
  return fc.oneof({ withCrossShrink: true }, ...moves);
}

/**
 * Weight of edge moves among about 100: enough that each of the fifty-odd edge classes turns up
 * several times in a default run (300 runs of up to 20 steps).
 */
const EDGE_WEIGHT = 16;

/** Clients that speak as principals in no input class (`input-classes.ts`) beyond these. */
const ORDINARY: ReadonlySet<InputClass> = new Set([
  'principal another user in the same workspace',
  'principal same user in another workspace',
]);

/**
 * An arbitrary client among the fixture's principals that pass `only`: an ordinary one seven
 * times in eight, else one in an unusual class (a user or workspace that differs only in case,
 * a look-alike or extra scope), enough for each to make dozens of calls in a default run
 * without diluting the collisions the other bugs need. Principals in an excluded class are
 * never drawn. Shrinks towards the first principal.
 */
function clientArbitrary(
  fixture: Fixture,
  excluded: ReadonlySet<InputClass>,
  only: (p: Principal) => boolean = () => true,
): fc.Arbitrary<number> {
  const classes = fixture.principals.map((_, i) => principalClasses(fixture, i));
  const allowed = clientsOutside(fixture, excluded).filter((i) => {
    const p = fixture.principals[i];
    return p !== undefined && only(p);
  });
  const ordinary = allowed.filter((i) => classes[i]?.every((c) => ORDINARY.has(c)));
  const unusual = allowed.filter((i) => !ordinary.includes(i));
  if (allowed.length === 0) return fc.constant(0);
  if (ordinary.length === 0 || unusual.length === 0) return fc.constantFrom(...allowed);
  return fc.oneof(
    { withCrossShrink: true },
    { weight: 7, arbitrary: fc.constantFrom(...ordinary) },
    { weight: 1, arbitrary: fc.constantFrom(...unusual) },
  );
}
