/**
 * fast-check arbitraries for moves, weighted so that retries, key reuse and world events are
 * frequent enough to collide within a 20-step sequence, and every input class
 * (`input-classes.ts`) turns up in a default run. Pools are small on purpose: a few principals,
 * a few target rows, a handful of values per field. The operation is the options'
 * (`spec`, the one the run checks): its fields give the values (`value-fields.ts`) and edge classes, its
 * `events` the world events drawn; only a versioned operation draws a `VersionChoice`.
 */
import fc from 'fast-check';
import type { Delivery } from '../model/events.ts';
import { allowsEvent, type OperationSpec, targetRows } from '../model/operation.ts';
import { declaresExpiry, resolvePolicy } from '../model/policy.ts';
import type { FixtureWithPolicy } from '../model/state.ts';
import type { Fixture, Principal } from '../model/world.ts';
import { edgeField, edgeValues } from './edge-values.ts';
import type { ClassName } from './field-classes.ts';
import { clientsOutside, principalClasses } from './input-classes.ts';
import type { Move, RaceShape, VersionChoice } from './moves.ts';
import { otherTargetKeys } from './other-targets.ts';
import { seekableFields } from './precondition-edges.ts';
import { idChoiceArbitrary } from './request-ids.ts';
import { allowedPool, VALUE_KEY, valueArbitrary, withValues } from './value-arbitrary.ts';
import { valueFields } from './value-fields.ts';
import { versionField } from './versioning.ts';

/** Which kinds of move a sequence may contain. */
export interface MoveOptions {
  /** The operation the moves call: the one the run checks. */
  readonly spec: OperationSpec;
  /** Include concurrent groups (sequential mode runs them in lane order). */
  readonly races: boolean;
  /**
   * Include re-creation of deleted ids (the reference design's known limit), when the
   * operation allows it.
   */
  readonly recreate: boolean;
  /**
   * Input classes not to aim at (default none): no request id, edge value, field value or
   * fixture principal in them is drawn. For showing that a class is what catches a bug. A class
   * reached without aiming (`principal no scopes`, through a revoke) may still turn up.
   */
  readonly excludeInputClasses?: readonly ClassName[];
}

/**
 * The racing shapes, drawn alike but for `sameVersion`, drawn twice as often: calls under
 * different keys on one row are where a precondition checked or a row read outside the write's
 * lock goes wrong.
 */
const SHAPES: RaceShape[] = [
  'duplicate',
  'mismatch',
  'crossPrincipal',
  'sameVersion',
  'sameVersion',
  'disjoint',
  'worldRace',
];

/** The world events a race may release with a call, in the order they are drawn. */
const RACE_WORLDS = ['move', 'delete', 'revoke'] as const;

/** An arbitrary single move for `fixture`, of the options' operation. */
export function moveArbitrary(fixture: Fixture, options: MoveOptions): fc.Arbitrary<Move> {
  const { spec } = options;
  const excluded = new Set(options.excludeInputClasses ?? []);
  const client = clientArbitrary(fixture, spec, excluded);
  // Principals with the write scope: an edge value sent by another reaches nothing (rule 1
  // refuses first), and only they can lose the scope and have it back.
  const writer = clientArbitrary(fixture, spec, excluded, (p) => p.scopes.includes(spec.scope));
  const target = fc.nat({ max: 9 });
  const fields = valueFields(spec, targetRows(fixture, spec));
  const pools = fields.map((f) => allowedPool(spec, f, excluded));
  // Each field's value is drawn as a key of the intent's own record, not as a nested record:
  // a nested `fc.record` draws differently, and `set-interval` must keep its sequences.
  const valueKeys = Object.fromEntries(
    fields.map((f, i) => [
      `${VALUE_KEY}${f.field.name}`,
      valueArbitrary(spec, f, pools[i] ?? [], excluded),
    ]),
  );
  const version = versionField(spec);
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
  const edge = edgeValues(spec, excluded);
  const edgeFields = new Map(edge.classes.map((cls) => [cls, edgeField(cls, spec)]));
  const changes = spec.fields.map((f) => f.name).filter((f) => f !== spec.targetField);
  const worlds = RACE_WORLDS.filter((w) => allowsEvent(spec, w === 'revoke' ? 'revoke' : w));

  const moves: fc.WeightedArbitrary<Move>[] = [
    {
      weight: 30,
      arbitrary: fc
        .record({
          kind: fc.constant('intent'),
          client,
          id: idChoiceArbitrary(),
          target,
          ...valueKeys,
          ...otherTargetKeys(spec),
          ...(version
            ? {
                version: fc.constantFrom<VersionChoice>(
                  'known',
                  'known',
                  'known',
                  'stale',
                  'ahead',
                ),
              }
            : {}),
          delivery,
        })
        .map(withValues),
    },
    { weight: 20, arbitrary: fc.record({ kind: fc.constant('retry'), client, pick, delivery }) },
    {
      weight: 7,
      arbitrary: fc.record({
        kind: fc.constant('reuse'),
        client,
        pick,
        change: fc.constantFrom('target', ...changes),
        delivery,
      }),
    },
    {
      weight: EDGE_WEIGHT,
      arbitrary: fc
        .record({ client: writer, target, cls: fc.constantFrom(...edge.classes) })
        .chain(({ cls, ...m }) =>
          edge.value(cls).map((value) => ({
            kind: 'edge' as const,
            ...m,
            field: edgeFields.get(cls) ?? edgeField(cls, spec),
            value,
          })),
        ),
    },
  ];
  if (seekableFields(spec).length > 0)
    moves.push({
      weight: SEEK_WEIGHT,
      // Principals with the write scope: only their calls meet the precondition.
      arbitrary: fc.record({
        kind: fc.constant('seek'),
        client: writer,
        target,
        field: fc.nat({ max: 3 }),
        pick: fc.nat({ max: 11 }),
        delivery,
      }),
    });
  if (allowsEvent(spec, 'revoke'))
    moves.push({
      weight: 5,
      // Only a principal that holds the write scope can lose it and have it back.
      arbitrary: fc.record({ kind: fc.constant('scope'), client: writer, granted: fc.boolean() }),
    });
  if (allowsEvent(spec, 'move'))
    moves.push({
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant('move'), target, workspace }),
    });
  if (allowsEvent(spec, 'delete'))
    moves.push({ weight: 3, arbitrary: fc.record({ kind: fc.constant('delete'), target }) });
  if (allowsEvent(spec, 'storeFail'))
    moves.push({
      weight: 5,
      arbitrary: fc.record({ kind: fc.constant('store'), failing: fc.boolean() }),
    });
  // Only a plugin that declares an expiry gets clock advances; every other plugin's sequences
  // stay exactly as they were.
  if (declaresExpiry(resolvePolicy((fixture as FixtureWithPolicy).policy)))
    moves.push({
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant('clock'), long: fc.boolean() }),
    });
  if (options.recreate && allowsEvent(spec, 'recreate'))
    moves.push({
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant('recreate'), target, workspace }),
    });
  if (options.races) {
    const first = pools[0];
    moves.push({
      weight: 10,
      arbitrary: fc.record({
        kind: fc.constant('race'),
        shape: fc.constantFrom(...SHAPES.filter((s) => s !== 'worldRace' || worlds.length > 0)),
        clients: fc.array(client, { minLength: 2, maxLength: 4 }),
        target,
        values: first
          ? fc.array(fc.constantFrom(...first), { minLength: 4, maxLength: 4 })
          : fc.constant([]),
        world: worlds.length > 0 ? fc.constantFrom(...worlds) : fc.constant('move' as const),
        pick,
      }),
    });
  }
  // Likewise a race group, a retry or a world event may shrink to a plain new intent.
  return fc.oneof({ withCrossShrink: true }, ...moves);
}

/**
 * Weight of edge moves among about 120: enough that each of the fifty-odd edge classes turns up
 * several times in a default run (300 runs of up to 20 steps), beside the seek moves.
 */
const EDGE_WEIGHT = 20;

/**
 * Weight of seek moves (`seek-request.ts`): about one call in ten sits at the precondition's edge
 * as the state it meets has it, or at a field's limit, so an off-by-one at the edge is met within
 * a few runs.
 */
const SEEK_WEIGHT = 10;

/** Clients that speak as principals in no input class (`input-classes.ts`) beyond these. */
const ORDINARY: ReadonlySet<ClassName> = new Set([
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
  spec: OperationSpec,
  excluded: ReadonlySet<ClassName>,
  only: (p: Principal) => boolean = () => true,
): fc.Arbitrary<number> {
  const classes = fixture.principals.map((_, i) => principalClasses(fixture, spec, i));
  const allowed = clientsOutside(fixture, spec, excluded).filter((i) => {
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
