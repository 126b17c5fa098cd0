/**
 * The `set-interval` PostgreSQL catalogue with each plugin imported, for the callers that run
 * them in-process: the PostgreSQL mutants (`catalogueOf('set-interval', 'postgres')`) and the
 * correct handlers that must hold. Derived from the catalogue; throws at import if a catalogued
 * name has no plugin here.
 */
import type { MutantEntry } from '../../../catalogue.ts';
import type { PostgresHandlerPlugin } from '../../../postgres/plugin.ts';
import { catalogueOf, operationCatalogue } from '../../../registry.ts';
import checkThenAct from './mutants/check-then-act.ts';
import keyLockBase from './mutants/key-lock-base.ts';
import lockOrderInversion from './mutants/lock-order-inversion.ts';
import onConflictNoReread from './mutants/on-conflict-no-reread.ts';
import serializableNoRetry from './mutants/serializable-no-retry.ts';
import unlockBeforeCommit from './mutants/unlock-before-commit.ts';
import reference from './set-interval-pg-reference.ts';

/** A catalogued PostgreSQL mutant with its plugin. */
export interface PgMutantEntry extends MutantEntry {
  readonly plugin: PostgresHandlerPlugin;
}

const PLUGINS = [
  reference,
  keyLockBase,
  checkThenAct,
  onConflictNoReread,
  serializableNoRetry,
  unlockBeforeCommit,
  lockOrderInversion,
];

function pluginNamed(name: string): PostgresHandlerPlugin {
  const found = PLUGINS.find((p) => p.name === name);
  if (!found) throw new Error(`no PostgreSQL plugin imported for catalogued handler ${name}`);
  return found;
}

/** Every PostgreSQL mutant of the catalogue, in its order, with its plugin. */
export const PG_MUTANT_CATALOGUE: readonly PgMutantEntry[] = catalogueOf(
  'set-interval',
  'postgres',
).map((m) => ({ ...m, plugin: pluginNamed(m.name) }));

/** Correct PostgreSQL handlers that must hold: the reference, and the base one mutant is built on. */
export const PG_REFERENCES: readonly PostgresHandlerPlugin[] = (
  operationCatalogue('set-interval')?.references ?? []
)
  .filter((r) => r.engine === 'postgres')
  .map((r) => pluginNamed(r.name));
