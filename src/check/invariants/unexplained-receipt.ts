/**
 * What the receipt invariants say about a receipt no fresh `ok` explains: what it stores, and
 * the calls made under its key with what each answered, so the counterexample names the call
 * that wrote it (a refusal stored as a receipt shows as the call that was refused).
 */
import { describeOutcome, describeResult } from '../../model/outcome.ts';
import { resolvePolicy } from '../../model/policy.ts';
import type { FixtureWithPolicy } from '../../model/state.ts';
import type { Receipt } from '../../model/world.ts';
import type { Observation } from '../../types/trace.ts';
import type { RunRecord } from '../run-record.ts';
import { callKey, receiptKeyOf } from '../run-record.ts';

/** How many calls under one key are named before the rest is counted. */
const CALLS_NAMED = 3;

/** The calls under `r`'s key, in the order they ran: the ones that may have written it. */
export function callsUnderKey(run: RunRecord, r: Receipt): Observation[] {
  const key = receiptKeyOf(r);
  return run.trace.observations.filter((o) => callKey(run, o) === key);
}

/**
 * `receipt for request "r1" (alice@team-a) stores result (kind "refused" reason "conflict"), but
 * no fresh ok returned that result: the call under its key at step 2 answered refused(conflict)`,
 * and when a call under the key was refused, what to do about it; with the step of the first call
 * under the key to blame.
 */
export function unexplainedReceipt(
  run: RunRecord,
  r: Receipt,
): { readonly message: string; readonly step?: number } {
  const calls = callsUnderKey(run, r);
  const head = `receipt for request "${r.requestId}" (${r.user}@${r.workspace}) stores result (${describeResult(r.result)}), but no fresh ok returned that result`;
  if (calls.length === 0) return { message: `${head}, and no call was made under its key` };
  const named = calls
    .slice(0, CALLS_NAMED)
    .map((o) => `at step ${o.step + 1} answered ${describeOutcome(o.observed)}`);
  if (calls.length > CALLS_NAMED) named.push(`${calls.length - CALLS_NAMED} more`);
  const which = calls.length === 1 ? 'the call under its key' : 'the calls under its key';
  const refused = calls.some((o) => o.observed.kind === 'refused');
  const hint = refused ? `. ${refusalHint(run)}` : '';
  return {
    message: `${head}: ${which} ${named.join('; ')}${hint}`,
    step: (calls[0] as Observation).step,
  };
}

/** What to do about a refusal kept as a receipt, with the policy declared or not. */
function refusalHint(run: RunRecord): string {
  return resolvePolicy((run.fixture as FixtureWithPolicy).policy).storesRefusals
    ? 'A stored refusal (policy storesRefusals) is not a receipt: snapshot(db) must leave it out'
    : 'Only a fresh ok stores a receipt; a handler that stores refusals by design declares policy storesRefusals, and its snapshot(db) leaves them out';
}
