/**
 * The model's state: the database as the contract says it should be, plus the harness-owned
 * context (principals' scopes, whether the receipt store is failing). Immutable; `step` returns
 * a new state and shares whatever did not change.
 */
import {
  type Automation,
  compareReceiptKeys,
  type Fixture,
  type Principal,
  type Receipt,
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
}

/** The state every run starts from. */
export function initialState(fixture: Fixture): ModelState {
  return {
    automations: new Map(fixture.automations.map((a) => [a.id, a])),
    receipts: new Map(),
    principals: fixture.principals,
    storeFailing: false,
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
