/**
 * Shape checks for what plugins return: an outcome from `call`, a snapshot from `snapshot`.
 * A plugin is third-party code; these keep a malformed value from reaching the checkers.
 */
import { ReceiptcheckError } from '../errors.ts';
import type { Outcome } from './outcome.ts';
import type { Snapshot } from './world.ts';

const REASONS = new Set(['forbidden', 'unavailable', 'conflict']);
const FIELDS = new Set(['requestId', 'automationId', 'expectedVersion', 'intervalMinutes']);

/** Whether `value` is one of the contract's outcomes. */
export function isOutcome(value: unknown): value is Outcome {
  if (typeof value !== 'object' || value === null) return false;
  const o = value as Record<string, unknown>;
  switch (o.kind) {
    case 'ok':
      return typeof o.replayed === 'boolean' && isResult(o.result);
    case 'refused':
      return REASONS.has(o.reason as string);
    case 'invalid':
      return FIELDS.has(o.field as string);
    case 'keyReuse':
      return true;
    case 'error':
      return typeof o.message === 'string';
    default:
      return false;
  }
}

function isResult(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    Number.isInteger(r.id) && Number.isInteger(r.intervalMinutes) && Number.isInteger(r.version)
  );
}

/** Checks a plugin's snapshot; throws `E_SNAPSHOT_SHAPE` naming the first thing wrong. */
export function checkSnapshotShape(value: unknown, handler: string): Snapshot {
  const fail = (what: string): never => {
    throw new ReceiptcheckError(
      'E_SNAPSHOT_SHAPE',
      `handler "${handler}": snapshot(db) ${what}; it must return {automations: [{id, workspace, intervalMinutes, version}], receipts: [{workspace, user, tool, requestId, payload: {id, version, interval}, result: {id, intervalMinutes, version}}]}`,
    );
  };
  if (typeof value !== 'object' || value === null) return fail('did not return an object');
  const s = value as Record<string, unknown>;
  if (!Array.isArray(s.automations)) return fail('has no "automations" array');
  if (!Array.isArray(s.receipts)) return fail('has no "receipts" array');
  for (const a of s.automations as Record<string, unknown>[]) {
    if (
      !Number.isInteger(a?.id) ||
      typeof a?.workspace !== 'string' ||
      !Number.isInteger(a?.intervalMinutes) ||
      !Number.isInteger(a?.version)
    ) {
      return fail(`has a malformed automation ${JSON.stringify(a)}`);
    }
  }
  for (const r of s.receipts as Record<string, unknown>[]) {
    const p = r?.payload as Record<string, unknown> | undefined;
    if (
      typeof r?.workspace !== 'string' ||
      typeof r?.user !== 'string' ||
      typeof r?.tool !== 'string' ||
      typeof r?.requestId !== 'string' ||
      !p ||
      !Number.isInteger(p.id) ||
      !Number.isInteger(p.version) ||
      !Number.isInteger(p.interval) ||
      !isResult(r?.result)
    ) {
      return fail(`has a malformed receipt ${JSON.stringify(r)}`);
    }
  }
  return value as Snapshot;
}
