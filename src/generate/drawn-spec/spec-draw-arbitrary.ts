/**
 * The fast-check arbitrary of operation specs (`SpecDraw`) across the spec's space: fields of
 * every rule kind in any validation order (zod-derived ones when asked), with or without an
 * expected version; row fields the effect sets, adds to, counts or advances; a precondition of
 * version, bound and unchanged checks in any order, each with its refusal reason; created rows
 * with opaque, rowid or default ids; results that carry the target's id, row fields, echoed
 * arguments and the created id; payloads that rename or leave out a field; every subset of the
 * world events; fixtures of one to four rows in either workspace; one spec in four writes a second
 * row (`other-target-draw.ts`). Every draw is a valid spec.
 */
import fc from 'fast-check';
import { addable, fieldDrawArbitrary } from './field-draw-arbitrary.ts';
import { PEER_FIELD, withOtherTarget } from './other-target-draw.ts';
import {
  type Cell,
  type CheckDraw,
  type CreatedDraw,
  type FieldDraw,
  type FixtureRowDraw,
  type RowEffectDraw,
  type RowFieldDraw,
  type SpecDraw,
  valueKindOf,
} from './spec-draw.ts';
import { DRAWN_WORKSPACES } from './spec-from-draw.ts';

/** What `specDrawArbitrary` may draw. */
export interface SpecDrawOptions {
  /** Draw zod-derived fields too (their spec then needs the zod bridge). Default false. */
  readonly zod?: boolean;
}

const NOUNS = ['gadget', 'ticket', 'wallet', 'doc', 'seat', 'plan'];
const FIELD_NAMES = ['amount', 'qty', 'title', 'note', 'level', 'tag', 'flag', 'code', 'otherId'];
const ROW_NAMES = ['balance', 'stock', 'label', 'total', 'hits', 'status', 'size'];
/** Tables of created rows, each with the result field that carries a created row's id. */
const CREATED_TABLES = [
  { table: 'entries', resultId: 'entryId' },
  { table: 'invoices', resultId: 'invoiceId' },
  { table: 'bookings', resultId: 'bookingId' },
];
const CREATED_FIELDS = ['ownerId', 'what', 'cents', 'kind'];
const REASONS = ['insufficient', 'sold-out', 'over-limit', 'limit-reached', 'unchanged'];

/** Operation specs, as data; `specFromDraw` builds each. */
export function specDrawArbitrary(options: SpecDrawOptions = {}): fc.Arbitrary<SpecDraw> {
  const zod = options.zod ?? false;
  return fc
    .record({
      noun: fc.constantFrom(...NOUNS),
      targetName: fc.constantFrom('targetId', 'parentId', 'id'),
      versioned: fc.boolean(),
      names: fc.shuffledSubarray(FIELD_NAMES, { minLength: 0, maxLength: 3 }),
      // One spec in four writes two rows.
      twoRows: fc.constantFrom(false, false, false, true),
    })
    .chain(({ noun, targetName, versioned, names, twoRows }) => {
      const targetField = targetName === 'id' ? `${noun}Id` : targetName;
      const others = names.map((n) => fieldDrawArbitrary(n, zod));
      return fc.tuple(...others).chain((drawn) => {
        const fields: FieldDraw[] = [
          { kind: 'id', name: targetField },
          ...(versioned ? [{ kind: 'id' as const, name: 'expectedVersion' }] : []),
          ...(twoRows ? [{ kind: 'id' as const, name: PEER_FIELD }] : []),
          ...drawn,
        ];
        return fc
          .shuffledSubarray(fields, { minLength: fields.length })
          .chain((ordered) => restOf(noun, targetField, versioned, ordered))
          .chain((draw) => (twoRows ? withOtherTarget(draw) : fc.constant(draw)));
      });
    });
}

/** Everything after the fields: rows, checks, created rows, result, payload, events, fixture. */
function restOf(
  noun: string,
  targetField: string,
  versioned: boolean,
  fields: readonly FieldDraw[],
): fc.Arbitrary<SpecDraw> {
  const args = fields.filter(
    (f) => f.name !== targetField && f.name !== 'expectedVersion' && f.name !== PEER_FIELD,
  );
  return fc
    .record({
      rowFields: rowFieldsArbitrary(versioned, args),
      created: fc.option(createdArbitrary(args), { freq: 3 }),
      events: fc.option(
        fc.record({
          move: fc.boolean(),
          delete: fc.boolean(),
          recreate: fc.boolean(),
          revoke: fc.boolean(),
          storeFail: fc.boolean(),
        }),
        { freq: 2 },
      ),
      targetId: fc.constantFrom('id', `${noun}Id`),
      omit: fc.option(fc.constantFrom(...(args.length > 0 ? args.map((f) => f.name) : [''])), {
        freq: 4,
      }),
      renamed: fc.boolean(),
    })
    .chain(({ rowFields, created, events, targetId, omit, renamed }) =>
      fc
        .record({
          checks: checksArbitrary(versioned, rowFields),
          resultRows: fc.subarray(rowFields.map((rf) => rf.name)),
          echo: fc.subarray(args.map((f) => f.name)),
          rows: fixtureRowsArbitrary(rowFields, args),
        })
        .map(
          ({ checks, resultRows, echo, rows }): SpecDraw => ({
            noun,
            table: `${noun}s`,
            fields,
            targetField,
            rowFields,
            checks,
            ...(created ? { created } : {}),
            result: {
              targetId,
              rowFields: resultRows,
              echo: echo.map((field) => ({ name: `sent_${field}`, field })),
            },
            payload: fields
              .filter((f) => f.name !== omit)
              .map((f) => ({ key: renamed ? `p_${f.name}` : f.name, field: f.name })),
            ...(events ? { events } : {}),
            rows,
          }),
        ),
    );
}

/** A value a row field may start with, for a field holding `kind` values. */
function cellArbitrary(numeric: boolean): fc.Arbitrary<Cell> {
  return numeric
    ? fc.integer({ min: 0, max: 2000 })
    : fc.oneof(fc.constantFrom<Cell>('', 'none', 'Ünï', 'x y'), fc.integer({ min: -5, max: 5 }));
}

function rowFieldsArbitrary(
  versioned: boolean,
  args: readonly FieldDraw[],
): fc.Arbitrary<RowFieldDraw[]> {
  const setFrom = args.map((f) => f.name);
  const addFrom = args.filter(addable).map((f) => f.name);
  const effects: fc.Arbitrary<RowEffectDraw>[] = [
    fc.constant({ kind: 'keep' }),
    fc.integer({ min: 1, max: 5 }).map((step) => ({ kind: 'count', step })),
    ...(setFrom.length > 0
      ? [fc.constantFrom(...setFrom).map((field): RowEffectDraw => ({ kind: 'set', field }))]
      : []),
    ...(addFrom.length > 0
      ? [
          fc
            .tuple(fc.constantFrom(...addFrom), fc.constantFrom<1 | -1>(1, -1))
            .map(([field, sign]): RowEffectDraw => ({ kind: 'add', field, sign })),
        ]
      : []),
  ];
  const version: RowFieldDraw = { name: 'version', init: 1, effect: { kind: 'version' } };
  return fc.shuffledSubarray(ROW_NAMES, { minLength: 0, maxLength: 3 }).chain((names) =>
    fc.tuple(...names.map(() => fc.oneof(...effects))).chain((drawn) =>
      fc.tuple(...drawn.map((effect) => cellArbitrary(numericEffect(effect)))).map((inits) => {
        const rows = names.map((name, i) => ({
          name,
          init: inits[i] as Cell,
          effect: drawn[i] as RowEffectDraw,
        }));
        return versioned ? [version, ...rows] : rows;
      }),
    ),
  );
}

function numericEffect(effect: RowEffectDraw): boolean {
  return effect.kind === 'add' || effect.kind === 'count' || effect.kind === 'version';
}

function checksArbitrary(
  versioned: boolean,
  rowFields: readonly RowFieldDraw[],
): fc.Arbitrary<CheckDraw[]> {
  const bounded = rowFields.filter((rf) => rf.effect.kind === 'add' || rf.effect.kind === 'count');
  const settable = rowFields.filter((rf) => rf.effect.kind === 'set');
  const bound = bounded.map((rf) =>
    fc
      .record({
        min: fc.integer({ min: -1000, max: 1000 }),
        span: fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.constant(1e12)),
        reason: fc.constantFrom(...REASONS),
      })
      .map(
        ({ min, span, reason }): CheckDraw => ({
          kind: 'bound',
          row: rf.name,
          min,
          max: min + span,
          reason,
        }),
      ),
  );
  const unchanged = settable.map((rf) =>
    fc
      .constantFrom(...REASONS)
      .map((reason): CheckDraw => ({ kind: 'unchanged', row: rf.name, reason })),
  );
  const optional = [...bound, ...unchanged].map((a) => fc.option(a, { freq: 2 }));
  return fc.tuple(fc.constant(null), ...optional).chain(([, ...picked]) => {
    const checks: CheckDraw[] = [
      ...(versioned ? [{ kind: 'version' as const }] : []),
      ...picked.filter((c): c is CheckDraw => c !== null),
    ];
    return fc.shuffledSubarray(checks, { minLength: checks.length });
  });
}

function createdArbitrary(args: readonly FieldDraw[]): fc.Arbitrary<CreatedDraw> {
  const from = fc.oneof(
    fc.constant({ kind: 'parent' as const }),
    fc.constantFrom<Cell>('new', 0, 'Ünï').map((value) => ({ kind: 'const' as const, value })),
    ...(args.length > 0
      ? [
          fc
            .constantFrom(...args.map((f) => f.name))
            .map((field) => ({ kind: 'arg' as const, field })),
        ]
      : []),
  );
  return fc
    .record({
      table: fc.constantFrom(...CREATED_TABLES),
      names: fc.shuffledSubarray(CREATED_FIELDS, { minLength: 0, maxLength: 3 }),
      ids: fc.constantFrom<CreatedDraw['ids']>('opaque', 'rowid', undefined),
      fixtureIds: fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { maxLength: 2 }),
    })
    .chain(({ table, names, ids, fixtureIds }) =>
      fc
        .tuple(
          fc.tuple(...names.map(() => from)),
          fc.tuple(...fixtureIds.map(() => fc.tuple(...names.map(() => cellArbitrary(false))))),
        )
        .map(([froms, values]) => ({
          table: table.table,
          fields: names.map((name, i) => ({
            name,
            from: froms[i] as CreatedDraw['fields'][number]['from'],
          })),
          resultId: table.resultId,
          ids,
          fixtureRows: fixtureIds.map((id, r) => ({
            id,
            values: Object.fromEntries(names.map((name, i) => [name, values[r]?.[i] as Cell])),
          })),
        })),
    );
}

function fixtureRowsArbitrary(
  rowFields: readonly RowFieldDraw[],
  args: readonly FieldDraw[],
): fc.Arbitrary<FixtureRowDraw[]> {
  const kinds = new Map(args.map((f) => [f.name, valueKindOf(f)]));
  const startValue = (rf: RowFieldDraw): fc.Arbitrary<Cell> => {
    if (rf.effect.kind === 'version') return fc.integer({ min: 1, max: 3 });
    if (rf.effect.kind === 'set') {
      const kind = kinds.get(rf.effect.field);
      return cellArbitrary(kind === 'integer' || kind === 'number');
    }
    return fc.oneof(fc.constant(rf.init), cellArbitrary(numericEffect(rf.effect)));
  };
  const row = fc.record({
    workspace: fc.constantFrom(...DRAWN_WORKSPACES),
    values: fc.tuple(...rowFields.map(startValue)),
  });
  return fc
    .tuple(
      fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 4 }),
      fc.array(row, { minLength: 4, maxLength: 4 }),
    )
    .map(([ids, rows]) =>
      ids.map((id, i) => ({
        id,
        // The first row is in team-a, where most principals are.
        workspace: i === 0 ? 'team-a' : (rows[i]?.workspace ?? 'team-a'),
        values: Object.fromEntries(
          rowFields.map((rf, f) => [rf.name, (rows[i]?.values[f] ?? rf.init) as Cell]),
        ),
      })),
    );
}
