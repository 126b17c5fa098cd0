/**
 * Shape checks for what plugins return: an outcome from `call`, a snapshot from `snapshot`.
 * A plugin is third-party code; these keep a malformed value from reaching the checkers. What a
 * handler stored (a receipt's payload and result) is its behaviour, not a shape: the checkers
 * judge it.
 */
import { ReceiptcheckError } from '../errors.ts';
import { type Args, type FieldRule, type OperationSpec, opaqueIds } from './operation.ts';
import { DEFAULT_OPERATION } from './operations/index.ts';
import type { Outcome } from './outcome.ts';
import type { Snapshot } from './world.ts';

/** The refusals every operation has, besides the ones its spec declares (`refusals`). */
export const BUILT_IN_REASONS: readonly string[] = ['forbidden', 'unavailable', 'conflict'];

/**
 * Whether `value` is one of the contract's outcomes for `spec` (default `set-interval`): a
 * result with the operation's fields, a refusal reason it can give, an invalid field it has.
 * Without a spec, any result of numbers and strings, any reason and any field pass.
 */
export function isOutcome(value: unknown, spec?: OperationSpec): value is Outcome {
  if (typeof value !== 'object' || value === null) return false;
  const o = value as Record<string, unknown>;
  switch (o.kind) {
    case 'ok':
      return typeof o.replayed === 'boolean' && isResult(o.result, spec);
    case 'refused':
      return spec
        ? shapeOf(spec).reasons.includes(o.reason as string)
        : typeof o.reason === 'string';
    case 'invalid':
      return spec
        ? o.field === 'requestId' || spec.fields.some((f) => f.name === o.field)
        : typeof o.field === 'string';
    case 'keyReuse':
      return true;
    case 'error':
      return typeof o.message === 'string';
    default:
      return false;
  }
}

function isResult(value: unknown, spec: OperationSpec | undefined): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  const fields = spec ? spec.resultFields : Object.keys(r);
  if (fields.length === 0) return false;
  for (let i = 0; i < fields.length; i++) {
    const v = r[fields[i] as string];
    if (!(Number.isFinite(v) || (typeof v === 'string' && spec !== undefined))) return false;
  }
  return true;
}

/** What the shape checks read of a spec, worked out once per spec: they run for every call. */
interface SpecShape {
  readonly reasons: readonly string[];
  readonly tables: readonly {
    readonly name: string;
    readonly fields: readonly string[];
    /** Ids the server assigns as it likes (`created.ids: 'opaque'`): a UUID as well as a number. */
    readonly textIds?: boolean;
  }[];
  readonly payloadKeys: readonly string[];
}

const shapes = new WeakMap<OperationSpec, SpecShape>();

function shapeOf(spec: OperationSpec): SpecShape {
  let shape = shapes.get(spec);
  if (!shape) {
    const tables: SpecShape['tables'][number][] = [
      { name: spec.table, fields: ['workspace', ...spec.rowFields] },
    ];
    if (spec.created) {
      tables.push({
        name: spec.created.table,
        fields: [...spec.created.fields],
        textIds: opaqueIds(spec),
      });
    }
    shape = {
      reasons: [...BUILT_IN_REASONS, ...(spec.refusals ?? [])],
      tables,
      payloadKeys: Object.keys(samplePayload(spec)),
    };
    shapes.set(spec, shape);
  }
  return shape;
}

/**
 * Checks a plugin's snapshot; throws `E_SNAPSHOT_SHAPE` naming the first thing wrong. It checks
 * what the plugin's `snapshot` function builds: an object with the operation's tables and the
 * receipts as arrays, rows with integer ids and cells, receipts with a string key and a payload
 * and a result that are objects. What a receipt's payload and result hold is what the handler
 * stored, its behaviour rather than the plugin's shape: a refusal stored as a result, or other
 * fields, passes here and is judged against the model, so it becomes a counterexample that
 * names the call that wrote it.
 */
export function checkSnapshotShape(
  value: unknown,
  handler: string,
  spec: OperationSpec = DEFAULT_OPERATION,
): Snapshot {
  // Loops over what `shapeOf` kept, and no closure on the good path: this runs for every run.
  const { tables } = shapeOf(spec);
  if (typeof value !== 'object' || value === null)
    return badSnapshot(handler, spec, 'did not return an object');
  const s = value as Record<string, unknown>;
  for (const t of tables) {
    if (!Array.isArray(s[t.name])) return badSnapshot(handler, spec, `has no "${t.name}" array`);
  }
  if (!Array.isArray(s.receipts)) return badSnapshot(handler, spec, 'has no "receipts" array');
  for (const t of tables) {
    for (const a of s[t.name] as Record<string, unknown>[]) {
      // A row's own fields are integers or strings (`Row`): a title, a currency, a status.
      if (!isRow(a, t.fields, t.textIds === true))
        return badSnapshot(
          handler,
          spec,
          `has a malformed ${t.name} row ${JSON.stringify(a)} (${rowProblem(a, t)})`,
        );
    }
  }
  for (const r of s.receipts as Record<string, unknown>[]) {
    if (!isReceipt(r))
      return badSnapshot(handler, spec, `has a malformed receipt ${JSON.stringify(r)}`);
  }
  return value as Snapshot;
}

/** What is wrong with a row `isRow` refused, in words: the message must say what to change. */
function rowProblem(
  a: Record<string, unknown> | undefined,
  t: SpecShape['tables'][number],
): string {
  if (typeof a !== 'object' || a === null) return 'a row must be an object';
  const id = a.id;
  if (!Number.isInteger(id) && !(t.textIds && typeof id === 'string' && id !== ''))
    return t.textIds
      ? 'its id must be an integer or a non-empty string'
      : 'its id must be an integer';
  const bad = t.fields.find((f) =>
    f === 'workspace' ? typeof a.workspace !== 'string' : !isCell(a[f]),
  );
  if (bad === undefined || bad === 'workspace') return 'its workspace must be a string';
  const v = a[bad];
  const value = v === undefined ? 'missing' : typeof v === 'number' ? String(v) : JSON.stringify(v);
  return `its ${bad} is ${value}: row fields are finite numbers or strings, never null`;
}

function isRow(
  a: Record<string, unknown> | undefined,
  fields: readonly string[],
  textIds: boolean,
): boolean {
  const id = a?.id;
  if (!Number.isInteger(id) && !(textIds && typeof id === 'string' && id !== '')) return false;
  for (const f of fields) {
    if (f === 'workspace' ? typeof a?.workspace !== 'string' : !isCell(a?.[f])) return false;
  }
  return true;
}

/** A string key, and a payload and a result that are objects; what they hold is not checked. */
function isReceipt(r: Record<string, unknown> | undefined): boolean {
  return (
    typeof r?.workspace === 'string' &&
    typeof r?.user === 'string' &&
    typeof r?.tool === 'string' &&
    typeof r?.requestId === 'string' &&
    isRecord(r?.payload) &&
    isRecord(r?.result)
  );
}

/** A plain object (not null, not an array): what a stored payload or result must parse to. */
function isRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `E_SNAPSHOT_SHAPE` error for a snapshot that is `what`, with the shape it must have. */
function badSnapshot(handler: string, spec: OperationSpec, what: string): never {
  const { tables, payloadKeys } = shapeOf(spec);
  const shape = tables.map((t) => `${t.name}: [{id, ${t.fields.join(', ')}}]`).join(', ');
  throw new ReceiptcheckError(
    'E_SNAPSHOT_SHAPE',
    `handler "${handler}": snapshot(db) ${what}; it must return {${shape}, receipts: [{workspace, user, tool, requestId, payload: {${payloadKeys.join(', ')}}, result: {${spec.resultFields.join(', ')}}}]}`,
  );
}

/**
 * A value a row field may hold: a finite number or a string, as `Row` says. A price of 5.5 is a
 * handler's data like any other; NaN and infinities are not values a database row gives back.
 */
function isCell(value: unknown): boolean {
  return Number.isFinite(value) || typeof value === 'string';
}

/**
 * The payload's field names, from a payload of valid arguments: a spec's `payload` may read its
 * fields as their rules allow (a text lowercased), so a placeholder of the wrong type would throw
 * from the user's code. Empty when it throws anyway: the names only decorate an error message.
 */
function samplePayload(spec: OperationSpec): Record<string, unknown> {
  const args = Object.fromEntries(spec.fields.map((f) => [f.name, validSample(f.rule)])) as Args;
  try {
    return spec.payload(args);
  } catch {
    return {};
  }
}

function validSample(rule: FieldRule): number | string | boolean | undefined {
  if (rule.kind === 'custom') return rule.valid[0];
  if (rule.kind === 'integer') return rule.min <= 1 && rule.max >= 1 ? 1 : rule.min;
  return 1;
}
