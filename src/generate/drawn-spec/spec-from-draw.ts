/**
 * The operation spec a `SpecDraw` describes, built the same on every thread: its fields and
 * rules, a pure precondition and effect computed from the draw's parameters, the created rows,
 * the fixture. Zod-derived fields come from the zod bridge through `zodField`, passed in by the
 * caller, since only `generate/zod/` may load zod (an optional peer dependency).
 */
import type {
  Args,
  ArgumentField,
  Effect,
  OperationSpec,
  Payload,
  Result,
  Row,
} from '../../model/operation.ts';
import { defaultPrincipals, type Fixture } from '../../model/world.ts';
import { customCheck } from './custom-check.ts';
import { PEER_RESULT_PREFIX } from './other-target-draw.ts';
import {
  type Cell,
  type CheckDraw,
  type CreatedFromDraw,
  drawHash,
  drawnName,
  type FieldDraw,
  type OtherTargetDraw,
  type RowFieldDraw,
  type SpecDraw,
  type ValueKind,
  valueKindOf,
  type ZodDraw,
} from './spec-draw.ts';

/** Builds a zod-derived field (`fieldsFromZod` on the schema the draw describes). */
export type ZodFieldOf = (name: string, schema: ZodDraw) => ArgumentField;

/** The workspaces every drawn fixture uses. */
export const DRAWN_WORKSPACES = ['team-a', 'team-b'] as const;

/**
 * The spec `draw` describes. Throws when it has a zod field and no `zodField` is given.
 * The effect reads only the row and the arguments; the created row's id and the result's
 * `created.resultId` are the only places `nextId` goes, as the contract's server-assigned ids.
 */
export function specFromDraw(draw: SpecDraw, zodField?: ZodFieldOf): OperationSpec {
  const kinds = new Map(draw.fields.map((f) => [f.name, valueKindOf(f)]));
  const cell = (field: string, args: Args): Cell => toCell(args[field], kinds.get(field));
  const newValue = (rf: RowFieldDraw, row: Row, args: Args): Cell => {
    const now = row[rf.name] as Cell;
    const e = rf.effect;
    switch (e.kind) {
      case 'keep':
        return now;
      case 'set':
        return cell(e.field, args);
      case 'add':
        return (now as number) + e.sign * (args[e.field] as number);
      case 'count':
        return (now as number) + e.step;
      case 'version':
        return (now as number) + 1;
    }
  };
  const rowField = new Map(draw.rowFields.map((rf) => [rf.name, rf]));
  const failed = (c: CheckDraw, row: Row, args: Args): string | undefined => {
    if (c.kind === 'version') return row.version !== args.expectedVersion ? 'conflict' : undefined;
    const rf = rowField.get(c.row);
    if (!rf) return undefined;
    if (c.kind === 'unchanged')
      return row[c.row] === newValue(rf, row, args) ? c.reason : undefined;
    const v = newValue(rf, row, args) as number;
    return v < c.min || v > c.max ? c.reason : undefined;
  };
  const created = draw.created;
  const createdCell = (from: CreatedFromDraw, row: Row, args: Args): Cell =>
    from.kind === 'parent' ? row.id : from.kind === 'arg' ? cell(from.field, args) : from.value;
  const others = draw.others ?? [];
  // A further target's row after the call: each field kept, changed as the first row's, or by
  // the opposite of the first row's change.
  const otherAfter = (o: OtherTargetDraw, other: Row, row: Row, next: Row, args: Args): Row => {
    const after: Record<string, Cell> = { ...other };
    for (const rf of draw.rowFields) {
      const how = o.effects[rf.name] ?? 'keep';
      if (how === 'same') after[rf.name] = newValue(rf, other, args) as Cell;
      if (how === 'mirror')
        after[rf.name] =
          (other[rf.name] as number) - ((next[rf.name] as number) - (row[rf.name] as number));
    }
    return after as Row;
  };
  const effect = (row: Row, args: Args, nextId: number, otherRows: readonly Row[]): Effect => {
    const next: Record<string, Cell> = { ...row };
    for (const rf of draw.rowFields) next[rf.name] = newValue(rf, row, args);
    const result: Record<string, Cell> = { [draw.result.targetId]: row.id };
    for (const f of draw.result.rowFields) result[f] = next[f] as Cell;
    for (const e of draw.result.echo) result[e.name] = cell(e.field, args);
    const written = others.map((o, i) =>
      otherAfter(o, otherRows[i] as Row, row, next as Row, args),
    );
    for (const [i, o] of others.entries())
      for (const f of o.resultFields) result[`${PEER_RESULT_PREFIX}${f}`] = written[i]?.[f] as Cell;
    const moreRows = others.length > 0 ? { others: written } : {};
    if (!created) return { row: next as Row, ...moreRows, result: result as Result };
    const made: Record<string, Cell> = { id: nextId };
    for (const f of created.fields) made[f.name] = createdCell(f.from, row, args);
    result[created.resultId] = nextId;
    return { row: next as Row, ...moreRows, created: made as Row, result: result as Result };
  };
  const reasons = [
    ...new Set(draw.checks.flatMap((c) => (c.kind === 'version' ? [] : [c.reason]))),
  ];
  const recreated = (id: number, workspace: string): Row => ({
    id,
    workspace,
    ...Object.fromEntries(draw.rowFields.map((rf) => [rf.name, rf.init])),
  });
  const scope = `${draw.noun}:write`;
  const fixture: Fixture = {
    [draw.table]: draw.rows.map((r) => ({ id: r.id, workspace: r.workspace, ...r.values })),
    ...(created
      ? { [created.table]: created.fixtureRows.map((r) => ({ id: r.id, ...r.values })) }
      : {}),
    principals: defaultPrincipals(scope),
    workspaces: [...DRAWN_WORKSPACES],
  };
  return {
    name: drawnName(draw),
    description: describeDraw(draw),
    tool: `${draw.noun}_${drawHash(draw)}.v1`,
    scope,
    noun: draw.noun,
    table: draw.table,
    rowFields: draw.rowFields.map((rf) => rf.name),
    targetField: draw.targetField,
    ...(others.length > 0 ? { otherTargets: others.map((o) => o.name) } : {}),
    fields: draw.fields.map((f) => argumentField(f, zodField)),
    resultFields: [
      draw.result.targetId,
      ...draw.result.rowFields,
      ...draw.result.echo.map((e) => e.name),
      ...others.flatMap((o) => o.resultFields.map((f) => `${PEER_RESULT_PREFIX}${f}`)),
      ...(created ? [created.resultId] : []),
    ],
    payload: (args) =>
      Object.fromEntries(draw.payload.map((p) => [p.key, args[p.field]])) as Payload,
    ...(draw.checks.length > 0
      ? {
          precondition: (row: Row, args: Args) => {
            for (const c of draw.checks) {
              const reason = failed(c, row, args);
              if (reason) return reason;
            }
            return undefined;
          },
        }
      : {}),
    ...(reasons.length > 0 ? { refusals: reasons } : {}),
    effect,
    ...(created
      ? {
          created: {
            table: created.table,
            fields: created.fields.map((f) => f.name),
            resultId: created.resultId,
            ...(created.ids ? { ids: created.ids } : {}),
          },
        }
      : {}),
    recreated,
    fixture,
    ...(draw.events ? { events: draw.events } : {}),
  };
}

/** What a row or result keeps of an argument of `kind`: numbers and strings as they are. */
function toCell(value: unknown, kind: ValueKind | undefined): Cell {
  if (kind !== 'mixed' && (typeof value === 'number' || typeof value === 'string')) return value;
  return typeof value === 'string' ? value : String(value);
}

function argumentField(f: FieldDraw, zodField: ZodFieldOf | undefined): ArgumentField {
  switch (f.kind) {
    case 'id':
      return { name: f.name, rule: { kind: 'id' } };
    case 'integer':
      return {
        name: f.name,
        rule: { kind: 'integer', min: f.min, max: f.max, ...(f.nonZero ? { nonZero: true } : {}) },
        ...(f.typical ? { typical: f.typical } : {}),
      };
    case 'custom':
      return {
        name: f.name,
        rule: { kind: 'custom', check: customCheck(f.check), valid: f.valid },
        ...(f.invalid.length > 0 ? { invalid: f.invalid } : {}),
      };
    case 'zod':
      if (!zodField)
        throw new Error(`field "${f.name}" is zod-derived; specFromDraw needs the zod bridge`);
      return zodField(f.name, f.schema);
  }
}

/** One line for `receiptcheck operations` and reports. */
function describeDraw(draw: SpecDraw): string {
  const parts = [
    `${draw.fields.length} fields`,
    draw.checks.length > 0
      ? `checks ${draw.checks.map((c) => c.kind).join('+')}`
      : 'no precondition',
    draw.created ? `creates ${draw.created.table} (${draw.created.ids ?? 'opaque'} ids)` : '',
    draw.others ? `writes ${draw.others.length + 1} rows` : '',
  ];
  return `a drawn ${draw.noun} operation: ${parts.filter((p) => p !== '').join(', ')}`;
}
