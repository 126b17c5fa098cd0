/**
 * What the signature of a finding reads in a shrunk failing run: the run itself, its failing
 * calls by place, and the two readings of a call both halves of the signature share (its key,
 * and whether its answer claims a receipt). Pure.
 */

import type { Event, Step } from '../model/events.ts';
import type { OperationSpec } from '../model/operation.ts';
import type { Observed } from '../model/outcome.ts';
import type { Mode } from '../types/mode.ts';
import type { Observation } from '../types/trace.ts';
import type { Failure } from '../types/verdict.ts';
import { blamedOperation } from './explain-linearizability.ts';
import { placeKey } from './injections.ts';

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

/** A call's idempotency key as the signature reads it: client and request id. */
export function callKey(e: Extract<Event, { kind: 'call' }>): string {
  return JSON.stringify([e.client, e.request.requestId]);
}

/**
 * Whether an answer says a receipt exists (a replay, a key reuse): its broken rule is then rule 7,
 * whatever the contract gave instead, so a key reuse told while no receipt exists is one finding
 * whether the call was due a conflict or an unavailable (which an unrelated part of the shrunk
 * case decides).
 */
export function claimsReceipt(o: Observed): boolean {
  return o.kind === 'keyReuse' || (o.kind === 'ok' && o.replayed);
}

/** A failing call: what it should have answered and what it did. */
export interface Failing {
  readonly expected?: Observed;
  readonly actual?: Observed;
  readonly hang?: boolean;
}

/** The failing calls by `placeKey`. */
export function failingPlaces(failures: readonly Failure[]): Map<string, Failing> {
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
