/**
 * Shape checks for what plugins return: an outcome from `call`, a snapshot from `snapshot`.
 * A plugin is third-party code; these keep a malformed value from reaching the checkers.
 */
import { ReceiptcheckError } from '../errors.ts';
import type { OperationSpec } from './operation.ts';
import { DEFAULT_OPERATION } from './operations/index.ts';
import type { Outcome } from './outcome.ts';
import type { Snapshot } from './world.ts';

const REASONS = ['forbidden', 'unavailable', 'conflict'];

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
        ? [...REASONS, ...(spec.refusals ?? [])].includes(o.reason as string)
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
  return (
    fields.length > 0 &&
    fields.every((k) => Number.isInteger(r[k]) || (typeof r[k] === 'string' && spec !== undefined))
  );
}

/** Checks a plugin's snapshot; throws `E_SNAPSHOT_SHAPE` naming the first thing wrong. */
export function checkSnapshotShape(
  value: unknown,
  handler: string,
  spec: OperationSpec = DEFAULT_OPERATION,
): Snapshot {
  const tables = [{ name: spec.table, fields: ['workspace', ...spec.rowFields] }];
  if (spec.created) tables.push({ name: spec.created.table, fields: [...spec.created.fields] });
  const fail = (what: string): never => {
    const shape = tables.map((t) => `${t.name}: [{id, ${t.fields.join(', ')}}]`).join(', ');
    throw new ReceiptcheckError(
      'E_SNAPSHOT_SHAPE',
      `handler "${handler}": snapshot(db) ${what}; it must return {${shape}, receipts: [{workspace, user, tool, requestId, payload: {${Object.keys(samplePayload(spec)).join(', ')}}, result: {${spec.resultFields.join(', ')}}}]}`,
    );
  };
  if (typeof value !== 'object' || value === null) return fail('did not return an object');
  const s = value as Record<string, unknown>;
  for (const t of tables) {
    if (!Array.isArray(s[t.name])) return fail(`has no "${t.name}" array`);
  }
  if (!Array.isArray(s.receipts)) return fail('has no "receipts" array');
  for (const t of tables) {
    for (const a of s[t.name] as Record<string, unknown>[]) {
      // A row's own fields are integers or strings (`Row`): a title, a currency, a status.
      const ok =
        Number.isInteger(a?.id) &&
        t.fields.every((f) =>
          f === 'workspace' ? typeof a?.workspace === 'string' : isCell(a?.[f]),
        );
      if (!ok) return fail(`has a malformed ${t.name} row ${JSON.stringify(a)}`);
    }
  }
  const payloadKeys = Object.keys(samplePayload(spec));
  for (const r of s.receipts as Record<string, unknown>[]) {
    const p = r?.payload as Record<string, unknown> | undefined;
    if (
      typeof r?.workspace !== 'string' ||
      typeof r?.user !== 'string' ||
      typeof r?.tool !== 'string' ||
      typeof r?.requestId !== 'string' ||
      !p ||
      !payloadKeys.every((k) => isPayloadValue(p[k])) ||
      !isResult(r?.result, spec)
    ) {
      return fail(`has a malformed receipt ${JSON.stringify(r)}`);
    }
  }
  return value as Snapshot;
}

/** A value a row field may hold: an integer or a string. */
function isCell(value: unknown): boolean {
  return Number.isInteger(value) || typeof value === 'string';
}

/**
 * What a payload may hold: a valid argument. Integers for the built-ins; a custom field's may be
 * another finite number, a string or a boolean (`ArgumentField`).
 */
function isPayloadValue(v: unknown): boolean {
  return Number.isFinite(v) || typeof v === 'string' || typeof v === 'boolean';
}

/** The payload's field names, from a payload of placeholder arguments. */
function samplePayload(spec: OperationSpec): Record<string, unknown> {
  return spec.payload(Object.fromEntries(spec.fields.map((f) => [f.name, 1])));
}
