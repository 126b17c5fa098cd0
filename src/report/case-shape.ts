/**
 * The shape half of a finding's signature: the shrunk case as a line of tokens, with what
 * shrinking leaves to chance abstracted away (see `finding-signature.ts` for what is kept). Pure.
 */

import type { CallIntent, Event, Step } from '../model/events.ts';
import type { Observed } from '../model/outcome.ts';
import {
  callKey,
  claimsReceipt,
  type Failing,
  failingPlaces,
  type SignatureInput,
} from './failing-calls.ts';
import { type Injection, placeKey, scheduledInjections } from './injections.ts';

/** The shape of a shrunk failing run: its kept events in step order, as text. */
export function caseShape(input: SignatureInput): string {
  const failing = failingPlaces(input.failures);
  const injected = scheduledInjections(input.detail);
  const answers = new Map(input.observations.map((o) => [placeKey(o.step, o.lane), o.observed]));
  const allCalls = failing.size === 0;
  const atOnce = (step: number) => ranAtOnce(input, step);
  const relation = relations(input.steps, atOnce);
  // A race's failure shows in its group; world events before it only decide how a partner
  // lane fared (refused as unavailable or as a conflict), which the group's token leaves out.
  const raced = input.steps.some(
    (s, step) =>
      s.kind === 'concurrent' &&
      atOnce(step) &&
      s.events.some((_, lane) => failing.has(placeKey(step, lane))),
  );
  // A database failure with a crash or fault injected turns on what was injected; the fresh
  // writes around it are what shrinking left, so then only the injected calls are kept.
  const injectedAny = allCalls && [...injected.values()].some((list) => list.length > 0);
  const tokens: string[] = [];
  for (const [step, s] of input.steps.entries()) {
    const events = s.kind === 'concurrent' ? s.events : [s];
    const lanes = events.map((event, lane) => {
      const key = placeKey(step, lane);
      return {
        event: event.kind === 'call' ? { ...event, intent: relation.get(key) ?? 'new' } : event,
        failing: failing.get(key),
        injected: injected.get(key) ?? [],
        key,
      };
    });
    const kept = lanes.filter(
      (l) =>
        (l.event.kind !== 'call' && !raced) ||
        l.failing !== undefined ||
        l.injected.length > 0 ||
        (allCalls && !injectedAny && changedSomething(answers.get(l.key))),
    );
    if (kept.length === 0) continue;
    if (s.kind !== 'concurrent' || !atOnce(step)) {
      for (const l of kept)
        tokens.push(eventToken(l.event, l.failing, l.injected, allCalls, answers.get(l.key)));
      continue;
    }
    // A failing lane's partners are kept too: the race is between them.
    const shown = lanes.some((l) => l.failing) ? lanes : kept;
    const inner = shown
      .map((l) => eventToken(l.event, l.failing, l.injected, allCalls, answers.get(l.key)))
      .sort();
    tokens.push(`group(${inner.join(' | ')})`);
  }
  return tokens.join(' ; ') || '(no steps)';
}

/**
 * What each call is to the calls before it, from the requests themselves (a generated move's
 * intent may not say: a "reuse" can shrink to the very same arguments): `retry` when the same
 * client sent the same request before, `reuse` when it sent another under the same request id,
 * `invalid` for a move meant as invalid input, else `new`. In a group whose lanes ran at once
 * (`atOnce`) lane order means nothing, so each lane is read against the other lanes too: two
 * identical racing lanes are both retries, whichever lost. By `placeKey`.
 */
function relations(
  steps: readonly Step[],
  atOnce: (step: number) => boolean,
): Map<string, CallIntent> {
  const sent = new Map<string, string[]>();
  const out = new Map<string, CallIntent>();
  for (const [step, s] of steps.entries()) {
    const events = s.kind === 'concurrent' ? s.events : [s];
    const racing = s.kind === 'concurrent' && atOnce(step);
    for (const [lane, e] of events.entries()) {
      if (e.kind !== 'call') continue;
      const key = JSON.stringify([e.client, e.request.requestId]);
      const request = JSON.stringify(e.request);
      const partners = racing
        ? events.flatMap((p, i) =>
            i > lane && p.kind === 'call' && callKey(p) === key ? [JSON.stringify(p.request)] : [],
          )
        : [];
      const before = [...(sent.get(key) ?? []), ...partners];
      out.set(
        placeKey(step, lane),
        e.intent === 'invalid'
          ? 'invalid'
          : before.length === 0
            ? 'new'
            : before.includes(request)
              ? 'retry'
              : 'reuse',
      );
      sent.set(key, [...(sent.get(key) ?? []), request]);
    }
  }
  return out;
}

/**
 * Whether the lanes of group `step` ran at once: never in sequential mode; in scheduled mode
 * when some lane's grants came between another's; on real threads, always (no one knows).
 */
function ranAtOnce(input: SignatureInput, step: number): boolean {
  if (input.mode === 'sequential') return false;
  const entries = (input.detail as { entries?: unknown } | undefined)?.entries;
  if (input.mode !== 'scheduled' || !Array.isArray(entries)) return true;
  const lanes = (entries as { step?: unknown; lane?: unknown }[])
    .filter((e) => e.step === step && typeof e.lane === 'number' && e.lane >= 0)
    .map((e) => e.lane as number);
  const finished = new Set<number>();
  for (const [i, lane] of lanes.entries()) {
    if (finished.has(lane)) return true;
    const next = lanes[i + 1];
    if (next !== undefined && next !== lane) finished.add(lane);
  }
  return false;
}

/** One event as text: a world event's kind; a call's intent, delivery, injections and answer. */
function eventToken(
  e: Event,
  failing: Failing | undefined,
  injected: readonly Injection[],
  allCalls: boolean,
  answer: Observed | undefined,
): string {
  if (e.kind !== 'call') return e.kind;
  // Only a failing call's relation to the calls before it is kept: for the calls around it, it
  // is whatever shrinking left.
  const parts = [failing ? (e.intent ?? 'call') : 'call'];
  if (e.delivery !== 'delivered') parts.push(e.delivery);
  for (const i of injected) parts.push(i.kind === 'crash' ? `crash(${i.point})` : i.kind);
  if (failing?.hang) parts.push('✗ hang');
  else if (failing) {
    const { expected, actual } = failing;
    // With an answer that claims a receipt, the reason the contract gave instead is left out (see `claimsReceipt`).
    const due = expected
      ? expected.kind === 'refused' && actual && claimsReceipt(actual)
        ? 'refused'
        : outcomeToken(expected)
      : '?';
    parts.push(`✗ ${due}→${actual ? outcomeToken(actual) : '?'}`);
  } else if (allCalls && answer && !injected.some((i) => i.kind === 'crash'))
    // A crashed call's client heard nothing: its "answer" is the model's reading, not shown.
    parts.push(`→${outcomeToken(answer)}`);
  return parts.join(' ');
}

/**
 * Whether an answer may have changed the database: a fresh write, an error (which the contract
 * says changes nothing, and database failures are often about), an unexpected exception. A
 * refusal, invalid input, a key reuse, a replay or a lost request leave it as it was, so a
 * database failure's shape leaves them out.
 */
function changedSomething(o: Observed | undefined): boolean {
  return (
    o !== undefined &&
    ((o.kind === 'ok' && !o.replayed) || o.kind === 'error' || o.kind === 'unexpected')
  );
}

/** An outcome's kind (and reason or field), without values. */
export function outcomeToken(o: Observed): string {
  switch (o.kind) {
    case 'ok':
      return o.replayed ? 'replayed' : 'fresh';
    case 'refused':
      return `refused(${o.reason})`;
    case 'invalid':
      return `invalid(${o.field})`;
    default:
      return o.kind;
  }
}
