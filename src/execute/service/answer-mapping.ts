/**
 * How a service's answers become outcomes: an ordered list of rules, the description's `answers`
 * first, then `DEFAULT_ANSWERS`; the first rule that matches a reply decides. A rule matches on
 * the status, on header values and on values at paths in the body, and says which outcome the
 * reply is and where its result, reason, field or message comes from. Pure: the same for every
 * protocol (`protocol.ts`), testable without a service.
 *
 * A value written `$.a.b` is read from the body at that path; any other string is taken as it is.
 * A reply no rule matches is not an outcome: `outcomeOfReply` throws, and the harness reports the
 * call as an unexpected error, which is a failure.
 */

import type { Observed } from '../../model/outcome.ts';
import { type Outcome, outcome } from '../../model/outcome.ts';
import { unexpectedOf } from '../apply-event.ts';
import type { ProtocolClient, ServiceReply, ServiceRequest } from './protocol.ts';

/** The outcomes a rule can name. */
export const ANSWER_KINDS = [
  'fresh',
  'replayed',
  'refused',
  'keyReuse',
  'invalid',
  'error',
] as const;

/** An outcome a rule can name. */
export type AnswerKind = (typeof ANSWER_KINDS)[number];

/** A status to match: a number, or a class such as `"2xx"`. */
export type StatusPattern = number | string;

/** One rule of the answer mapping. Every condition given must hold; none given matches any reply. */
export interface AnswerRule {
  /** The status, or any of a list: `200`, `"2xx"`, `[500, 503]`. */
  readonly status?: StatusPattern | readonly StatusPattern[];
  /** Header values (names in lower case) the reply must carry, compared as text. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Values the body must hold at these paths (`a.b`, without `$.`). */
  readonly body?: Readonly<Record<string, string | number | boolean | null>>;
  /** What the reply is. */
  readonly outcome: AnswerKind;
  /** `fresh`/`replayed`: the path of the result in the body, `$` for the whole body (the default). */
  readonly result?: string;
  /** `refused`: the reason (`forbidden`, `unavailable`, `conflict`, …), or `$.path`. */
  readonly reason?: string;
  /** `invalid`: the field the service rejected, or `$.path`. Default `$.field`. */
  readonly field?: string;
  /** `error`: the message, or `$.path`. Default `$.error`, else the status line. */
  readonly message?: string;
}

/** The rules every description gets after its own: the statuses REST APIs use for the contract. */
export const DEFAULT_ANSWERS: readonly AnswerRule[] = [
  { status: '2xx', headers: { 'idempotent-replayed': 'true' }, outcome: 'replayed' },
  { status: '2xx', outcome: 'fresh' },
  { status: 400, outcome: 'invalid' },
  { status: 403, outcome: 'refused', reason: 'forbidden' },
  { status: 404, outcome: 'refused', reason: 'unavailable' },
  { status: 409, outcome: 'refused', reason: 'conflict' },
  { status: 422, outcome: 'keyReuse' },
  { status: '5xx', outcome: 'error' },
];

/** A reply no rule maps: the harness reports the call as an unexpected error. */
export class UnmappedReply extends Error {
  override readonly name = 'UnmappedReply';
}

/** The outcome `reply` stands for under `rules` (then the defaults); throws `UnmappedReply`. */
export function outcomeOfReply(reply: ServiceReply, rules: readonly AnswerRule[]): Outcome {
  const rule = [...rules, ...DEFAULT_ANSWERS].find((r) => matches(r, reply));
  if (!rule) throw new UnmappedReply(`no answer rule maps ${describeReply(reply)}`);
  switch (rule.outcome) {
    case 'fresh':
    case 'replayed': {
      const result = rule.result === undefined ? reply.body : valueAt(reply.body, rule.result);
      if (!isResult(result))
        throw new UnmappedReply(
          `${describeReply(reply)}: the result at ${rule.result ?? '$'} is not an object of numbers and strings`,
        );
      return rule.outcome === 'fresh' ? outcome.fresh(result) : outcome.replayed(result);
    }
    case 'refused':
      return outcome.refused(textOf(reply, rule.reason ?? '$.reason', 'reason'));
    case 'keyReuse':
      return outcome.keyReuse();
    case 'invalid':
      return outcome.invalid(textOf(reply, rule.field ?? '$.field', 'field'));
    case 'error': {
      const message = rule.message ?? '$.error';
      const read = isPath(message) ? valueAt(reply.body, message) : message;
      return outcome.error(typeof read === 'string' ? read : `status ${reply.status}`);
    }
  }
}

/** Whether `rule`'s conditions all hold for `reply`. */
export function matches(rule: AnswerRule, reply: ServiceReply): boolean {
  if (rule.status !== undefined) {
    const patterns = Array.isArray(rule.status) ? rule.status : [rule.status];
    if (!patterns.some((p) => statusMatches(p, reply.status))) return false;
  }
  for (const [name, value] of Object.entries(rule.headers ?? {}))
    if (reply.headers[name.toLowerCase()] !== value) return false;
  for (const [path, value] of Object.entries(rule.body ?? {}))
    if (valueAt(reply.body, path) !== value) return false;
  return true;
}

function statusMatches(pattern: StatusPattern, status: number): boolean {
  if (typeof pattern === 'number') return pattern === status;
  return /^[1-5]xx$/.test(pattern) && Math.floor(status / 100) === Number(pattern[0]);
}

/** Whether a status pattern is well formed: an integer 100–599 or `1xx`…`5xx`. */
export function isStatusPattern(value: unknown): value is StatusPattern {
  if (typeof value === 'string') return /^[1-5]xx$/.test(value);
  return Number.isInteger(value) && (value as number) >= 100 && (value as number) <= 599;
}

/** Whether `text` is a body path (`$` or `$.a.b`) rather than a literal. */
export function isPath(text: string): boolean {
  return text === '$' || text.startsWith('$.');
}

/** The value in `body` at `path` (`$.a.b`, `a.b`, or `$` for the body itself); undefined when absent. */
export function valueAt(body: unknown, path: string): unknown {
  const rest = path === '$' ? '' : path.replace(/^\$\./, '');
  let at = body;
  for (const key of rest === '' ? [] : rest.split('.')) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

function textOf(reply: ServiceReply, spec: string, what: string): string {
  if (!isPath(spec)) return spec;
  const read = valueAt(reply.body, spec);
  if (typeof read === 'string' && read !== '') return read;
  throw new UnmappedReply(`${describeReply(reply)}: no ${what} string at ${spec}`);
}

function isResult(value: unknown): value is Record<string, number | string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'number' || typeof v === 'string')
  );
}

/** `status 418 {"x":1}`, the body cut to a line. */
function describeReply(reply: ServiceReply): string {
  const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  const short = (body ?? '').length > 120 ? `${(body ?? '').slice(0, 117)}...` : (body ?? '');
  return `status ${reply.status}${short ? ` ${short}` : ''}`;
}

/**
 * Sends `request` and resolves with what its client hears: the reply mapped by `answers`, or
 * `unexpected` when no reply came or no rule maps it. `noReply` hears when no reply came at all
 * (the service died or broke the connection), not when one came that no rule maps. Never rejects.
 */
export async function sendMapped(
  client: ProtocolClient,
  request: ServiceRequest,
  answers: readonly AnswerRule[],
  noReply: () => void,
  signal?: AbortSignal,
): Promise<Observed> {
  try {
    return outcomeOfReply(await client.send(request, signal), answers);
  } catch (thrown) {
    if (!(thrown instanceof UnmappedReply)) noReply();
    return unexpectedOf(thrown);
  }
}
