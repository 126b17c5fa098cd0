/**
 * The model's state: the database as the contract says it should be, plus the harness-owned
 * context (principals' scopes, whether the receipt store is failing). Immutable; `step` returns
 * a new state and shares whatever did not change.
 */

import { PersistentMap } from '../lib/persistent-map.ts';
import {
  createdRows,
  type OperationSpec,
  type Payload,
  type Row,
  targetRows,
} from './operation.ts';
import type { RefusalReason } from './outcome.ts';
import { type Policy, type PolicyDeclaration, resolvePolicy } from './policy.ts';
import {
  compareReceiptKeys,
  type Fixture,
  type Principal,
  type Receipt,
  type Snapshot,
} from './world.ts';

/** The whole world at one instant. Treat as immutable. */
export interface ModelState {
  /** The operation the model holds the handler to. Set once; no step changes it. */
  readonly operation: OperationSpec;
  /** The target table (automations, accounts, customers), by id. */
  readonly rows: ReadonlyMap<number, Row>;
  /** Rows calls created (invoices), by their server-assigned id; empty for most operations. */
  readonly created: ReadonlyMap<number, Row>;
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
  /**
   * The harness's virtual clock, in ms since the run began; only `clockAdvance` moves it, and
   * only under a policy that declares an expiry (`declaresExpiry`): otherwise nothing depends on
   * the time, and the clock stays at 0 so states that differ only in time are the same.
   */
  readonly clock: number;
  /**
   * When each stored receipt or refusal expires, on `clock`, keyed like `receipts`: gone once
   * `clock` is past it. Always empty unless the policy declares a `receiptExpiry`.
   */
  readonly expiresAt: ReadonlyMap<string, number>;
  /**
   * Claims crashed calls left behind, keyed like `receipts`: each answers later calls under its
   * key as in progress until it expires. Always empty unless the policy declares a `claimExpiry`
   * other than `'noClaim'`; only the scheduled checker's reading of a crash adds one (`leaveClaim`).
   */
  readonly claims: ReadonlyMap<string, StoredClaim>;
  /**
   * Errors stored under their key, keyed like `receipts`: each answers a later call under its key
   * with `error` (another payload: `keyReuse`) until it expires with the receipts
   * (`expiresAt`). Always empty unless the policy has `storesErrors`; only the scheduled
   * checker's reading of a faulted call adds one (`leaveError`). Not receipts: never in a snapshot.
   */
  readonly errors: ReadonlyMap<string, StoredError>;
}

/** An error a library stored under a key (policy `storesErrors`), with the payload it binds. */
export interface StoredError {
  readonly payload: Payload;
}

/** A claim a crashed call left under its key (policy `claimExpiry`), with the payload it binds. */
export interface StoredClaim {
  readonly payload: Payload;
  /** On `clock`: gone once the clock is past it; null for a claim that never expires. */
  readonly expiresAt: number | null;
}

/** A refusal a library stored under a key (policy `storesRefusals`), with the payload it binds. */
export interface StoredRefusal {
  readonly payload: Payload;
  readonly reason: RefusalReason;
}

/**
 * A fixture that may carry the handler's declared policy and the name of its operation (default
 * `set-interval`). `checkHandler` attaches both here, so every mode's checker, and a saved
 * counterexample, sees the same policy; the name is what a saved case says of its operation,
 * while a run holds the spec itself, passed from where it was prepared.
 */
export type FixtureWithPolicy = Fixture & {
  readonly policy?: PolicyDeclaration;
  readonly operation?: string;
};

const NO_RECEIPTS: ReadonlyMap<string, Receipt> = PersistentMap.empty();
const NO_REFUSALS: ReadonlyMap<string, StoredRefusal> = PersistentMap.empty();
const NO_EXPIRIES: ReadonlyMap<string, number> = PersistentMap.empty();
// Claims stay a plain Map: only crashes under a declared claimExpiry make them, so they stay few.
const NO_CLAIMS: ReadonlyMap<string, StoredClaim> = new Map();
// Stored errors too: only faulted calls under a declared storesErrors make them.
const NO_ERRORS: ReadonlyMap<string, StoredError> = new Map();

/**
 * The state every run of `operation` starts from, under `policy` (default: the fixture's, else
 * the contract). The spec is passed, never looked up by the fixture's operation name: whoever
 * prepared the run holds it.
 */
export function initialState(
  fixture: FixtureWithPolicy,
  operation: OperationSpec,
  policy: Policy = resolvePolicy(fixture.policy),
): ModelState {
  return {
    operation,
    rows: new Map(targetRows(fixture, operation).map((a) => [a.id, a])),
    created: new Map(createdRows(fixture, operation).map((a) => [a.id, a])),
    receipts: NO_RECEIPTS,
    principals: fixture.principals,
    storeFailing: false,
    refusals: NO_REFUSALS,
    policy,
    clock: 0,
    expiresAt: NO_EXPIRIES,
    claims: NO_CLAIMS,
    errors: NO_ERRORS,
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
  const spec = state.operation;
  const byId = (a: Row, b: Row) => a.id - b.id;
  return {
    [spec.table]: [...state.rows.values()].sort(byId),
    ...(spec.created ? { [spec.created.table]: [...state.created.values()].sort(byId) } : {}),
    receipts: [...state.receipts.values()].sort(compareReceiptKeys),
  };
}
