/**
 * The model's state: the database as the contract says it should be, plus the harness-owned
 * context (principals' scopes, whether the receipt store is failing). Immutable; `step` returns
 * a new state and shares whatever did not change.
 */

import type { RefusalReason } from './outcome.ts';
import { type Policy, type PolicyDeclaration, resolvePolicy } from './policy.ts';
import {
  type Automation,
  compareReceiptKeys,
  type Fixture,
  type Principal,
  type Receipt,
  type ReceiptPayload,
  type Snapshot,
} from './world.ts';

/** The whole world at one instant. Treat as immutable. */
export interface ModelState {
  readonly automations: ReadonlyMap<number, Automation>;
  /** Keyed by `receiptKey(...)`. */
  readonly receipts: ReadonlyMap<string, Receipt>;
  /** Indexed by client number; scopes change on revoke and restore. */
  readonly principals: readonly Principal[];
  readonly storeFailing: boolean;
  /**
   * Refusals stored under their key, keyed like `receipts`. Always empty unless the policy has
   * `storesRefusals`; they are not receipts and never appear in a snapshot.
   */
  readonly refusals: ReadonlyMap<string, StoredRefusal>;
  /** The declared policy the model holds the handler to. Set once; no step changes it. */
  readonly policy: Policy;
}

/** A refusal a library stored under a key (policy `storesRefusals`), with the payload it binds. */
export interface StoredRefusal {
  readonly payload: ReceiptPayload;
  readonly reason: RefusalReason;
}

/**
 * A fixture that may carry the handler's declared policy. `checkHandler` attaches the plugin's
 * declaration here, so every mode's checker, and a saved counterexample, sees the same policy.
 */
export type FixtureWithPolicy = Fixture & { readonly policy?: PolicyDeclaration };

const NO_REFUSALS: ReadonlyMap<string, StoredRefusal> = new Map();

/** The state every run starts from, under `policy` (default: the fixture's, else the contract). */
export function initialState(
  fixture: FixtureWithPolicy,
  policy: Policy = resolvePolicy(fixture.policy),
): ModelState {
  return {
    automations: new Map(fixture.automations.map((a) => [a.id, a])),
    receipts: new Map(),
    principals: fixture.principals,
    storeFailing: false,
    refusals: NO_REFUSALS,
    policy,
  };
}

/** The string a receipt is stored under: its four key parts, NUL-separated. */
export function receiptKey(
  workspace: string,
  user: string,
  tool: string,
  requestId: string,
): string {
  return `${workspace}\u0000${user}\u0000${tool}\u0000${requestId}`;
}

/** The model state in the shape plugins' `snapshot(db)` returns, sorted the same way. */
export function toSnapshot(state: ModelState): Snapshot {
  return {
    automations: [...state.automations.values()].sort((a, b) => a.id - b.id),
    receipts: [...state.receipts.values()].sort(compareReceiptKeys),
  };
}
