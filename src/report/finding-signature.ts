/**
 * The signature that groups failing runs into findings: the rule broken and the shape of the
 * shrunk case. Pure.
 *
 * It has to be stable (the same bug found on two seeds, or twice in one run, gives one
 * signature) and discriminating (two bugs give two). Shrinking makes the first possible: a
 * shrunk case keeps what the failure needs and little else. What it still varies in is
 * abstracted away:
 *
 * - concrete values: principals, request ids, target ids, versions, intervals, result values,
 *   lane order inside a group, and which statement a crash or fault hit;
 * - calls that answered as the contract says and had nothing injected: shrinking leaves such
 *   calls in (a duplicate kept beside the call that matters, an unrelated first write) more
 *   often than anything else, and the failure does not turn on them;
 * - a group whose lanes did not in fact run at once: in sequential mode every group runs in lane
 *   order, and in scheduled mode a group whose lanes ran one after the other (no lane's
 *   statements between another's) was serial too; its events count as plain steps, so a bug a
 *   group showed by chance groups with the same bug shown in plain steps;
 * - what the contract gave instead of an answer claiming a receipt (a key reuse, a replay): the
 *   rule such an answer breaks is rule 7 whatever was due instead, and whether that was a
 *   conflict or an unavailable is decided by whatever else the shrunk case holds.
 *
 * - in a race (a failing call in a group whose lanes ran at once): the world events before it,
 *   which only decide how the partner lane fared, and lane order (racing lanes are read against
 *   each other both ways, so two identical lanes are both retries, whichever lost);
 * - for a crash's lock (a call answered as a claim a crash left answers: see `crashLock`):
 *   everything but that, since what was due instead depends on how the crash is read.
 *
 * What is kept, in step order: every world event (a move, a revocation, the store failing: the
 * situations bugs depend on); every failing call, with its relation to the calls before it
 * (`new`, `retry`, `reuse`, `invalid`, read from the requests), what the network and the
 * harness did to it, and the expected and actual outcome kinds; every call with a crash or fault
 * injected; and, when a failing call stands in a group whose lanes ran at once, the group's
 * other lanes (a race needs its partner). When no call failed (a database or invariant failure),
 * every call that may have changed something (a fresh write, an error, an unexpected exception)
 * is kept with its answer, since the calls are then all the failure has; unless a crash or fault
 * was injected, when only the injected calls are kept (a crashed call with no answer: its client
 * heard none). The rule is that of the
 * first failure: the contract rule, the invariant, `the final database` or `hang`; or, for a
 * crash's lock, `a crash changes nothing`.
 */

import { createHash } from 'node:crypto';
import type { CallIntent, Event, Step } from '../model/events.ts';
import type { OperationSpec } from '../model/operation.ts';
import { setInterval } from '../model/operations/set-interval.ts';
import type { Observed } from '../model/outcome.ts';
import type { FindingSignature } from '../types/findings.ts';
import type { Mode } from '../types/mode.ts';
import type { Observation } from '../types/trace.ts';
import type { Failure } from '../types/verdict.ts';
import { explainFailure } from './explain-failure.ts';
import { blamedOperation } from './explain-linearizability.ts';
import { type Injection, placeKey, scheduledInjections } from './injections.ts';
import { ruleFor } from './rule-for.ts';

/** What a signature is read from: a shrunk failing run. */
export interface SignatureInput {
  readonly steps: readonly Step[];
  readonly failures: readonly Failure[];
  /** Every call's answer, from the run's trace. */
  readonly observations: readonly Observation[];
  /** The run's mode detail (a scheduled run's grants show its crashes and faults). */
  readonly detail?: unknown;
  readonly spec?: OperationSpec;
  /** The mode it ran in: sequential mode's groups run in lane order. */
  readonly mode: Mode;
}

/** The rule a failing call breaks when it answers a claim a crash left: see `crashLock`. */
export const CRASH_RULE = 'a crash changes nothing';

/** The signature of a shrunk failing run (see the file comment). */
export function findingSignature(input: SignatureInput): FindingSignature {
  const spec = input.spec ?? setInterval;
  const lock = crashLock(input);
  if (lock) return lock;
  const first = input.failures[0];
  return { rule: first ? ruleOf(first, spec) : 'no failure', shape: shapeOf(input) };
}

/**
 * A crash's lock: a call answered as a claim answers (`refused: conflict`, or `keyReuse`) while
 * another call under its key had a crash injected and no outcome failure is of another kind.
 * Whatever was due instead (a fresh write, a replay, an unavailable, depending on how the crash
 * is read and on what shrinking left) and whether the call repeated or changed the crashed
 * request, it is one bug: the crash left the key claimed. Its shape is fixed for that reason.
 */
function crashLock(input: SignatureInput): FindingSignature | undefined {
  if (input.failures.some((f) => f.kind === 'invariant')) return undefined;
  const injected = scheduledInjections(input.detail);
  const crashedKeys = new Set<string>();
  const calls = new Map<string, Event>();
  for (const [step, s] of input.steps.entries()) {
    const events = s.kind === 'concurrent' ? s.events : [s];
    for (const [lane, e] of events.entries()) {
      calls.set(placeKey(step, lane), e);
      if (e.kind === 'call' && (injected.get(placeKey(step, lane)) ?? []).some(isCrash))
        crashedKeys.add(callKey(e));
    }
  }
  if (crashedKeys.size === 0) return undefined;
  const failing = [...failingPlaces(input.failures)];
  if (failing.length === 0) return undefined;
  const locked = failing.every(([key, f]) => {
    const e = calls.get(key);
    return (
      e?.kind === 'call' &&
      crashedKeys.has(callKey(e)) &&
      (injected.get(key) ?? []).length === 0 &&
      f.actual !== undefined &&
      (f.actual.kind === 'keyReuse' ||
        (f.actual.kind === 'refused' && f.actual.reason === 'conflict'))
    );
  });
  return locked ? { rule: CRASH_RULE, shape: 'call crash ; call ✗ →in progress' } : undefined;
}

const isCrash = (i: Injection): boolean => i.kind === 'crash';

/** A call's idempotency key as the signature reads it: client and request id. */
function callKey(e: Extract<Event, { kind: 'call' }>): string {
  return JSON.stringify([e.client, e.request.requestId]);
}

/** A short id of a signature: 10 hex digits of its SHA-256, for file names and quick reference. */
export function signatureId(s: FindingSignature): string {
  return createHash('sha256').update(`${s.rule}\n${s.shape}`).digest('hex').slice(0, 10);
}

/** The rule a failure broke, as grouping text. */
function ruleOf(f: Failure, spec: OperationSpec): string {
  switch (f.kind) {
    case 'invariant':
      return `invariant: ${f.invariant}`;
    case 'snapshot':
      return 'the final database';
    case 'hang':
      return 'hang';
    case 'outcome':
      if (!f.faulted && claimsReceipt(f.actual)) return `rule ${ruleFor(f.actual, spec).rule}`;
      return `rule ${explainFailure(f, spec).rule ?? '?'}`;
    case 'linearizability': {
      const blamed = blamedOperation(f);
      if (blamed?.observed && claimsReceipt(blamed.observed))
        return `rule ${ruleFor(blamed.observed, spec).rule}`;
      const rule = explainFailure(f, spec).rule;
      return rule ? `rule ${rule}` : 'no serial order';
    }
  }
}

/**
 * Whether an answer says a receipt exists (a replay, a key reuse): its broken rule is then rule 7,
 * whatever the contract gave instead, so a key reuse told while no receipt exists is one finding
 * whether the call was due a conflict or an unavailable (which an unrelated part of the shrunk
 * case decides).
 */
function claimsReceipt(o: Observed): boolean {
  return o.kind === 'keyReuse' || (o.kind === 'ok' && o.replayed);
}

/** A failing call: what it should have answered and what it did. */
interface Failing {
  readonly expected?: Observed;
  readonly actual?: Observed;
  readonly hang?: boolean;
}

/** The failing calls by `placeKey`. */
function failingPlaces(failures: readonly Failure[]): Map<string, Failing> {
  const out = new Map<string, Failing>();
  for (const f of failures) {
    if (f.kind === 'outcome')
      out.set(placeKey(f.step, f.lane), { expected: f.expected, actual: f.actual });
    else if (f.kind === 'hang') out.set(placeKey(f.step, f.lane), { hang: true });
    else if (f.kind === 'linearizability') {
      const blamed = blamedOperation(f);
      if (blamed)
        out.set(placeKey(blamed.step, blamed.lane), {
          ...(blamed.expected ? { expected: blamed.expected } : {}),
          ...(blamed.observed ? { actual: blamed.observed } : {}),
        });
    }
  }
  return out;
}

function shapeOf(input: SignatureInput): string {
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
