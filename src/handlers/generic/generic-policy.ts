/**
 * The declared policies the generic SQLite handler honours, and the world functions that honour
 * them: `receiptExpiry` (`expiring-receipts.ts`) or `storesRefusals` (`stored-refusals.ts`, whose
 * transaction body the plugin takes from `storingRefusals`). The two together, and the other
 * switches (the order of the receipt lookup, stored errors, claims), are refused here, so no
 * drawn case declares a behaviour the handler does not have.
 */
import { ReceiptcheckError } from '../../errors.ts';
import { type PolicyDeclaration, resolvePolicy } from '../../model/policy.ts';
import type { Connection } from '../plugin.ts';
import type { SqliteWorld } from '../sqlite/operation-world.ts';
import { createExpiringReceipts, expiringAdvance } from './expiring-receipts.ts';
import { STORED_REFUSALS_DDL } from './stored-refusals.ts';

/** A policy the generic handler implements: the contract, or a receipt lifetime in ms. */
export type GenericPolicy = Pick<PolicyDeclaration, 'receiptExpiry' | 'storesRefusals'>;

/** The switches `GenericPolicy` may set. */
const HONOURED: ReadonlySet<string> = new Set(['receiptExpiry', 'storesRefusals']);

/**
 * `world` with `policy` declared and honoured: under a receipt lifetime, a harness clock made in
 * `setup` and an `advanceClock` that drops lapsed receipts; under stored refusals, their table.
 * Throws on a switch it does not honour, and on the two together.
 */
export function genericPolicyWorld(world: SqliteWorld, policy: GenericPolicy): SqliteWorld {
  const unhonoured = Object.keys(policy).filter((k) => !HONOURED.has(k));
  if (unhonoured.length > 0) {
    throw new ReceiptcheckError(
      'E_HANDLER_SHAPE',
      `the generic handler does not implement policy.${unhonoured.join(', policy.')}`,
    );
  }
  const resolved = resolvePolicy(policy);
  const lifetime = resolved.receiptExpiry;
  if (resolved.storesRefusals && lifetime !== 'never') {
    throw new ReceiptcheckError(
      'E_HANDLER_SHAPE',
      'the generic handler does not implement policy.storesRefusals with policy.receiptExpiry',
    );
  }
  /** The world declaring `policy`, its setup followed by `more`. */
  const declaring = (more: (db: Connection) => void): SqliteWorld => ({
    ...world,
    policy,
    setup(db, fixture) {
      world.setup(db, fixture);
      more(db);
    },
  });
  if (resolved.storesRefusals) return declaring((db) => db.exec(STORED_REFUSALS_DDL));
  if (lifetime === 'never') return Object.keys(policy).length > 0 ? { ...world, policy } : world;
  return { ...declaring(createExpiringReceipts), advanceClock: expiringAdvance(lifetime) };
}
