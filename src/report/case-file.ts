/**
 * The one file format for named scenarios and saved counterexamples, so that a counterexample
 * copied into `scenarios/` is a regression scenario. JSON (encoded with `encode.ts`), readable by
 * people: a call step may carry `"expect"` (the outcome the article promises), a concurrent group
 * `"expectAnyOrder"` (the outcomes in some order), and the file a final `"expectFinal"`.
 * Parsing is pure and strict: a malformed file is rejected with the path of the bad field.
 */

import { ReceiptcheckError } from '../errors.ts';
import type { CallEvent, Event, Step } from '../model/events.ts';
import { isOutcomePattern, type OutcomePattern } from '../model/outcome-pattern.ts';
import { DEFAULT_FIXTURE, type Fixture } from '../model/world.ts';
import { CASE_FORMAT, type CaseFile, type StepExpectation } from '../types/case-file.ts';
import { scheduleProblem } from './case-schedule.ts';
import { decodeJson, encodeJson } from './encode.ts';

const KNOWN = new Set([
  'format',
  'name',
  'description',
  'handler',
  'mode',
  'fixture',
  'steps',
  'expectFinal',
]);

/** What `run` writes beside the steps of every counterexample: a file with any of them is one. */
const RUN_RECORD = ['failures', 'seed', 'path', 'runsToFailure', 'shrinks'] as const;

/**
 * What a counterexample cannot replay without, and what it would replay in instead: the defaults
 * that serve a hand-written scenario would make it a different case, and its verdict one about nothing.
 */
const COUNTEREXAMPLE_NEEDS = [
  ['mode', 'sequential mode, not the mode it failed in'],
  ['fixture', 'the default world, not the one it failed in'],
] as const;

/** Parses a case file's text; `source` names it in error messages. */
export function parseCaseFile(text: string, source: string): CaseFile {
  let raw: unknown;
  try {
    raw = decodeJson(text);
  } catch (thrown) {
    return fail(source, `is not valid JSON (${(thrown as Error).message})`);
  }
  if (!isObject(raw)) return fail(source, 'must hold a JSON object');
  if (raw.format !== CASE_FORMAT) return fail(source, `must have "format": "${CASE_FORMAT}"`);
  if (!Array.isArray(raw.steps)) return fail(source, 'needs a "steps" array');
  const incomplete = missingRunField(raw);
  if (incomplete) return fail(source, incomplete);
  if (raw.fixture !== undefined && !isObject(raw.fixture))
    return fail(source, '"fixture" must be an object (the world the case starts from)');
  if (isObject(raw.fixture) && raw.fixture.operation !== undefined)
    if (typeof raw.fixture.operation !== 'string')
      return fail(source, '"fixture" "operation" must be the name of an operation');
  const mode = raw.mode ?? 'sequential';
  if (mode !== 'sequential' && mode !== 'concurrent' && mode !== 'scheduled')
    return fail(source, `"mode" must be sequential, concurrent or scheduled`);
  const expectations: StepExpectation[] = [];
  const steps = raw.steps.map((s, i) => parseStep(s, i, source, expectations));
  const badSchedule = scheduleProblem(raw, steps);
  if (badSchedule) return fail(source, badSchedule);
  const extra = Object.fromEntries(Object.entries(raw).filter(([k]) => !KNOWN.has(k)));
  return {
    source,
    name: typeof raw.name === 'string' ? raw.name : source,
    description: typeof raw.description === 'string' ? raw.description : '',
    handler: typeof raw.handler === 'string' ? raw.handler : 'reference',
    ...(typeof raw.handler === 'string' ? {} : { handlerNamed: false as const }),
    mode,
    fixture: (raw.fixture as Fixture | undefined) ?? DEFAULT_FIXTURE,
    steps,
    expectations,
    ...(isObject(raw.expectFinal)
      ? { expectFinal: raw.expectFinal as CaseFile['expectFinal'] }
      : {}),
    extra,
  };
}

/** Writes a case file's text; steps keep their special numbers. */
export function formatCaseFile(
  c: Omit<CaseFile, 'expectations'> & { expectations?: readonly StepExpectation[] },
): string {
  const { extra, expectations: _e, source: _s, ...rest } = c;
  return `${encodeJson({ format: CASE_FORMAT, ...rest, ...extra }, 2)}\n`;
}

/**
 * What a counterexample (a file carrying `run`'s record) lacks of the fields it cannot replay
 * without, as a phrase; undefined for a complete one and for a scenario, whose defaults are
 * documented.
 */
function missingRunField(raw: Record<string, unknown>): string | undefined {
  const record = RUN_RECORD.find((k) => raw[k] !== undefined);
  if (record === undefined) return undefined;
  const missing = COUNTEREXAMPLE_NEEDS.find(([k]) => raw[k] === undefined);
  if (!missing) return undefined;
  const [field, instead] = missing;
  return `is a counterexample (it has "${record}", which run writes) with no "${field}": it would replay in ${instead}; restore "${field}" from the file run wrote`;
}

function parseStep(
  value: unknown,
  index: number,
  source: string,
  expectations: StepExpectation[],
): Step {
  const where = `step ${index + 1}`;
  if (!isObject(value)) return fail(source, `${where} must be an object`);
  if (value.kind === 'concurrent') {
    if (!Array.isArray(value.events) || value.events.length < 1)
      return fail(source, `${where}: a concurrent group needs an "events" array`);
    const events = value.events.map((e, lane) =>
      parseEvent(e, `${where} lane ${lane + 1}`, source, index, lane, expectations),
    );
    if (value.expectAnyOrder !== undefined) {
      if (!Array.isArray(value.expectAnyOrder) || !value.expectAnyOrder.every(isOutcomePattern))
        return fail(source, `${where}: "expectAnyOrder" must be a list of outcomes`);
      expectations.push({ step: index, anyOrder: value.expectAnyOrder as OutcomePattern[] });
    }
    return { kind: 'concurrent', events };
  }
  return parseEvent(value, where, source, index, 0, expectations);
}

function parseEvent(
  value: unknown,
  where: string,
  source: string,
  step: number,
  lane: number,
  expectations: StepExpectation[],
): Event {
  if (!isObject(value)) return fail(source, `${where} must be an object`);
  const int = (k: string) => {
    if (!Number.isSafeInteger(value[k])) fail(source, `${where}: "${k}" must be an integer`);
    return value[k] as number;
  };
  // `automationId` is what world events named their row before operations became plugins.
  const resourceId = () => int('resourceId' in value ? 'resourceId' : 'automationId');
  const str = (k: string) => {
    if (typeof value[k] !== 'string') fail(source, `${where}: "${k}" must be a string`);
    return value[k] as string;
  };
  switch (value.kind) {
    case 'call': {
      if (!isObject(value.request))
        return fail(source, `${where}: a call needs a "request" object`);
      const delivery = value.delivery ?? 'delivered';
      if (delivery !== 'delivered' && delivery !== 'lostRequest' && delivery !== 'lostResponse')
        return fail(source, `${where}: "delivery" must be delivered, lostRequest or lostResponse`);
      const call: CallEvent = {
        kind: 'call',
        client: int('client'),
        request: { ...value.request, requestId: value.request.requestId },
        delivery,
        ...(typeof value.intent === 'string'
          ? { intent: value.intent as CallEvent['intent'] }
          : {}),
      };
      if (value.expect !== undefined) {
        if (!isOutcomePattern(value.expect))
          return fail(
            source,
            `${where}: "expect" is not an outcome pattern (an object with a known "kind")`,
          );
        expectations.push({ step, lane, outcome: value.expect });
      }
      return call;
    }
    case 'revoke':
    case 'restore':
      return { kind: value.kind, client: int('client') };
    case 'move':
      return { kind: 'move', resourceId: resourceId(), workspace: str('workspace') };
    case 'delete':
      return { kind: 'delete', resourceId: resourceId() };
    case 'recreate':
      return { kind: 'recreate', resourceId: resourceId(), workspace: str('workspace') };
    case 'storeFail':
    case 'storeRestore':
      return { kind: value.kind };
    case 'clockAdvance': {
      const ms = value.ms;
      if (!Number.isSafeInteger(ms) || (ms as number) <= 0)
        return fail(source, `${where}: "ms" must be a positive whole number of milliseconds`);
      return { kind: 'clockAdvance', ms: ms as number };
    }
    default:
      return fail(
        source,
        `${where}: unknown kind ${JSON.stringify(value.kind)} (call, revoke, restore, move, delete, recreate, storeFail, storeRestore, clockAdvance, concurrent)`,
      );
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(source: string, message: string): never {
  throw new ReceiptcheckError('E_BAD_SCENARIO', `${source} ${message}`);
}
