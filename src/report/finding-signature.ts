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
import type { Event } from '../model/events.ts';
import type { OperationSpec } from '../model/operation.ts';
import { setInterval } from '../model/operations/set-interval.ts';
import type { FindingSignature } from '../types/findings.ts';
import type { Failure } from '../types/verdict.ts';
import { caseShape } from './case-shape.ts';
import { explainFailure } from './explain-failure.ts';
import { blamedOperation } from './explain-linearizability.ts';
import { callKey, claimsReceipt, failingPlaces, type SignatureInput } from './failing-calls.ts';
import { type Injection, placeKey, scheduledInjections } from './injections.ts';
import { ruleFor } from './rule-for.ts';

export type { SignatureInput } from './failing-calls.ts';

/** The rule a failing call breaks when it answers a claim a crash left: see `crashLock`. */
export const CRASH_RULE = 'a crash changes nothing';

/** The signature of a shrunk failing run (see the file comment). */
export function findingSignature(input: SignatureInput): FindingSignature {
  const spec = input.spec ?? setInterval;
  const lock = crashLock(input);
  if (lock) return lock;
  const first = input.failures[0];
  return { rule: first ? ruleOf(first, spec) : 'no failure', shape: caseShape(input) };
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
