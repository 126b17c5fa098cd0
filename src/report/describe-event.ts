/**
 * Plain words for one event of a sequence, as a person would tell it:
 * `alice@team-a retries r0: set automation 1 to 30 min expecting v1 — response lost`, or for
 * another operation, in its own field names: `bob@team-a sends r2: adjust-balance accountId 1,
 * delta -700`. Pure; the counterexample renderer numbers and indents these lines.
 */
import type { CallEvent, Event } from '../model/events.ts';
import type { OperationSpec } from '../model/operation.ts';
import type { FixtureWithPolicy } from '../model/state.ts';
import type { Fixture } from '../model/world.ts';

const LONG = 24;

/** The client as `user@workspace`, or `client N` when the fixture has no such principal. */
export function describeClient(fixture: Fixture, client: number): string {
  const p = fixture.principals[client];
  return p ? `${p.user}@${p.workspace}` : `client ${client}`;
}

/** One event in words, in the terms of `spec`, the operation of the run that started from `fixture`. */
export function describeEvent(
  event: Event,
  fixture: FixtureWithPolicy,
  spec: OperationSpec,
): string {
  switch (event.kind) {
    case 'call':
      return describeCall(event, fixture, spec);
    case 'revoke':
      return `${describeClient(fixture, event.client)} loses the ${spec.scope} scope`;
    case 'restore':
      return `${describeClient(fixture, event.client)} gets the ${spec.scope} scope back`;
    case 'move':
      return `${spec.noun} ${event.resourceId} moves to workspace ${event.workspace}`;
    case 'delete':
      return `${spec.noun} ${event.resourceId} is deleted (its receipts stay)`;
    case 'recreate':
      return `${spec.noun} ${event.resourceId} is re-created in ${event.workspace}${spec.rowFields.includes('version') ? ' at version 1' : ''}`;
    case 'storeFail':
      return 'the receipt store starts failing (every receipt insert fails)';
    case 'storeRestore':
      return 'the receipt store works again';
    case 'clockAdvance':
      return `${formatDuration(event.ms)} pass on the clock`;
  }
}

const VERB: Record<NonNullable<CallEvent['intent']>, string> = {
  new: 'sends',
  retry: 'retries',
  reuse: 'reuses key',
  invalid: 'sends',
};

function describeCall(event: CallEvent, fixture: Fixture, spec: OperationSpec): string {
  const r = event.request;
  const who = describeClient(fixture, event.client);
  const verb = VERB[event.intent ?? 'new'];
  const tail =
    event.delivery === 'lostRequest'
      ? ' — request lost (never reached the server)'
      : event.delivery === 'lostResponse'
        ? ' — response lost (committed, reply dropped)'
        : '';
  const id = formatRequestId(r.requestId);
  if (spec.name !== 'set-interval') {
    // An optional field a client left out is absent from the request, not sent as undefined.
    const args = spec.fields
      .map((f) => (f.name in r ? `${f.name} ${formatArgument(r[f.name])}` : `${f.name} left out`))
      .join(', ');
    return `${who} ${verb} ${id}: ${spec.name} ${args}${tail}`;
  }
  const target =
    typeof r.automationId === 'number' && Number.isSafeInteger(r.automationId)
      ? `automation ${r.automationId}`
      : `automation ${formatValue(r.automationId)}`;
  const interval =
    typeof r.intervalMinutes === 'number' && Number.isFinite(r.intervalMinutes)
      ? `${r.intervalMinutes} min`
      : formatValue(r.intervalMinutes);
  const version =
    typeof r.expectedVersion === 'number' && Number.isSafeInteger(r.expectedVersion)
      ? `v${r.expectedVersion}`
      : `version ${formatValue(r.expectedVersion)}`;
  return `${who} ${verb} ${id}: set ${target} to ${interval} expecting ${version}${tail}`;
}

/** An argument as sent: a safe integer bare, anything else as `formatValue` shows it. */
function formatArgument(value: unknown): string {
  return typeof value === 'number' && Number.isSafeInteger(value)
    ? String(value)
    : formatValue(value);
}

/** A request id bare when it is a plain token (`r0`), quoted and shortened otherwise. */
export function formatRequestId(value: unknown): string {
  if (typeof value === 'string' && /^[A-Za-z0-9_-]{1,24}$/.test(value)) return value;
  return `request id ${formatValue(value)}`;
}

/** Any generated value, readable and unambiguous: `"1 OR 1=1"`, `NaN`, `true`, `1.5`, `undefined`. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') {
    const shown = value.length > LONG ? `${value.slice(0, LONG)}…` : value;
    const quoted = JSON.stringify(shown);
    return value.length > LONG ? `${quoted} (${value.length} chars)` : quoted;
  }
  if (typeof value === 'number') {
    if (Object.is(value, -0)) return '-0';
    if (Number.isSafeInteger(value) || !Number.isInteger(value)) return String(value);
    return `${value} (unsafe integer)`;
  }
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A span of ms in the largest whole unit that divides it: `3600 s`, `90 min`, `1500 ms`. */
export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}
