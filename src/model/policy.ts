/**
 * Declared policies: the few documented ways a real idempotency library departs from the
 * retry-receipt contract. A plugin declares its switches (`HandlerPlugin.policy`); the model then
 * expects the declared behaviour, so only what a library does *beyond* its own documentation is
 * reported. The default, every switch off, is the contract as written.
 *
 * The policy travels with the fixture (`FixtureWithPolicy`), because the fixture is the one value
 * every mode already carries from `checkHandler` to the model; it never changes during a run, so
 * the model keeps it out of per-step state changes.
 */
import { ReceiptcheckError } from '../errors.ts';

/** The switches, fully resolved. */
export interface Policy {
  /**
   * The idempotency layer runs before the business function: it answers a key it has stored
   * (replay, key reuse, stored refusal) and claims a new key (a store write) before current
   * access and the expected version are checked. So a replay after a move or delete is served
   * from the store, and while the store fails, a call on a new key gets `error` even where the
   * contract would refuse it as unavailable or conflict. Contract rule 6 says the opposite.
   */
  readonly idempotencyFirst: boolean;
  /**
   * Refusals by the business function (unavailable, conflict) are stored under the key like a
   * result and replayed: a retry gets the stored refusal, a changed payload under that key gets
   * `keyReuse`. The contract stores receipts only for fresh successes.
   */
  readonly storesRefusals: boolean;
  /**
   * An `error` answer is stored under the key like a result and replayed for the key's lifetime
   * (`receiptExpiry`): a retry gets `error` again, a changed payload under that key `keyReuse`
   * (the interceptor of `@node-idempotency/nestjs` records every error, 500s included, as Stripe
   * does). Only an error the library could record is stored: one its own store caused (the store
   * failing, or a write of its own that failed) leaves nothing, since recording it is a write to
   * that store. The model's own errors are all of that kind, so `step` never stores one; the
   * scheduled checker reads a call that answered `error` after an injected statement fault, and
   * then wrote something that stayed (`LaneEnd.durableAfterFault`), as having stored its error
   * (`leaveError`). The contract stores nothing for an error: a retry runs again.
   */
  readonly storesErrors: boolean;
  /**
   * What a duplicate gets while the first call under its key is still running: a replay once
   * the first commits (the contract), or `refused: conflict` at once, without waiting (Stripe,
   * the IETF Idempotency-Key draft's 409), with no effect. A serial `step` never sees a call in
   * flight, so the concurrent and scheduled checkers apply this switch, from real time.
   */
  readonly inFlightDuplicate: 'replay' | 'conflict';
  /**
   * How long a stored receipt (and, under `storesRefusals` or `storesErrors`, a stored refusal or
   * error) lasts: `'never'` (the contract: a receipt is kept for good), or a number of ms after
   * its commit, once more than which have passed on the harness's clock it is gone and a retry
   * under its key runs as new. Time passes only by `clockAdvance` world events, which are generated only for a plugin
   * that declares a number here (and provides `advanceClock`).
   */
  readonly receiptExpiry: 'never' | number;
  /**
   * What a call that crashed after its claim committed (a library's in-progress record, written
   * before the business function runs) may leave behind. `'noClaim'`, the contract: nothing; a
   * crashed call changed nothing or took effect. `'never'`: a claim that answers every later call
   * under its key as in progress (`refused: conflict` for the same payload; for another,
   * `keyReuse` or `refused: conflict`, whichever check the library makes first) for good. A number: the same claim, gone once more than that many ms have passed on
   * the harness's clock (`clockAdvance`), after which a retry runs as new. Only crashes leave
   * claims; the model cannot see them, so the scheduled checker reads each crash after a commit
   * three ways: no effect, took effect, or left a claim.
   */
  readonly claimExpiry: 'noClaim' | 'never' | number;
}

/** What a plugin declares: any subset of the switches; the rest keep the contract's value. */
export type PolicyDeclaration = Partial<Policy>;

/** The contract as written: every switch off. */
export const CONTRACT_POLICY: Policy = {
  idempotencyFirst: false,
  storesRefusals: false,
  storesErrors: false,
  inFlightDuplicate: 'replay',
  receiptExpiry: 'never',
  claimExpiry: 'noClaim',
};

/** Whether `policy` lets anything expire, so the harness's clock matters to the model. */
export function declaresExpiry(policy: Policy): boolean {
  return expiryLifetime(policy) !== undefined;
}

/**
 * The lifetime clock advances are scaled to: the receipts' when they expire, else the claims'
 * (undefined when nothing expires). One lifetime keeps generated advances off both boundaries.
 */
export function expiryLifetime(policy: Policy): number | undefined {
  if (typeof policy.receiptExpiry === 'number') return policy.receiptExpiry;
  return typeof policy.claimExpiry === 'number' ? policy.claimExpiry : undefined;
}

/** Whether a crashed call may leave a claim behind under `policy` (`claimExpiry`). */
export function declaresClaims(policy: Policy): boolean {
  return policy.claimExpiry !== 'noClaim';
}

/** Fills in a declaration and checks it; throws `E_HANDLER_SHAPE` naming a bad switch. */
export function resolvePolicy(
  declared: PolicyDeclaration | undefined,
  handler = 'handler',
): Policy {
  if (declared === undefined) return CONTRACT_POLICY;
  const bad = (what: string): never => {
    throw new ReceiptcheckError(
      'E_HANDLER_SHAPE',
      `handler "${handler}": ${what}; declare {idempotencyFirst?: boolean, storesRefusals?: boolean, storesErrors?: boolean, inFlightDuplicate?: 'replay' | 'conflict', receiptExpiry?: 'never' | ms, claimExpiry?: 'noClaim' | 'never' | ms}`,
    );
  };
  if (typeof declared !== 'object' || declared === null) return bad('policy must be an object');
  for (const key of Object.keys(declared)) {
    if (!(key in CONTRACT_POLICY)) bad(`policy.${key} is not a policy switch`);
  }
  const policy = { ...CONTRACT_POLICY, ...declared };
  if (typeof policy.idempotencyFirst !== 'boolean')
    bad('policy.idempotencyFirst must be a boolean');
  if (typeof policy.storesRefusals !== 'boolean') bad('policy.storesRefusals must be a boolean');
  if (typeof policy.storesErrors !== 'boolean') bad('policy.storesErrors must be a boolean');
  if (policy.inFlightDuplicate !== 'replay' && policy.inFlightDuplicate !== 'conflict') {
    bad(`policy.inFlightDuplicate must be 'replay' or 'conflict'`);
  }
  const expiry = policy.receiptExpiry;
  if (expiry !== 'never' && !(Number.isSafeInteger(expiry) && expiry > 0)) {
    bad(`policy.receiptExpiry must be 'never' or a positive whole number of ms`);
  }
  const claims = policy.claimExpiry;
  if (
    claims !== 'noClaim' &&
    claims !== 'never' &&
    !(Number.isSafeInteger(claims) && (claims as number) > 0)
  ) {
    bad(`policy.claimExpiry must be 'noClaim', 'never' or a positive whole number of ms`);
  }
  return policy;
}
