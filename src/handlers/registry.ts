/**
 * The handlers bundled with receiptcheck, by name: the reference, the mutant catalogue and the
 * wrapped idempotency libraries. `--handler NAME` looks here before treating NAME as a path.
 */
import { fileURLToPath } from 'node:url';
import { siblingModuleUrl } from '../sibling-module-url.ts';
import { MUTANT_CATALOGUE, type MutantEntry } from './mutant-catalogue.ts';
import { ADJUST_BALANCE_MUTANTS } from './operations/adjust-balance/catalogue.ts';
import { CREATE_ONCE_MUTANTS } from './operations/create-once/catalogue.ts';
import { TRANSFER_MUTANTS } from './operations/transfer/catalogue.ts';

/** What a bundled handler is for. */
export type BundledKind = 'reference' | 'mutant' | 'library';

/** One bundled handler: its module file and its role. */
export interface BundledHandler {
  readonly name: string;
  readonly kind: BundledKind;
  /** The operation it implements, when not `set-interval`. */
  readonly operation?: string;
  /** Its source file, relative to this folder; from the build it is loaded as `.js`. */
  readonly file: string;
  /** The engine it runs on, when not SQLite. */
  readonly engine?: 'postgres';
}

/**
 * The handlers on PostgreSQL: a reference per built-in operation (`pg-reference`,
 * `<operation>-pg-reference`), powertools on its PostgreSQL persistence layer, and the PostgreSQL
 * mutant catalogue (`postgres/mutants/catalogue.ts`) with its second correct handler.
 */
const POSTGRES_REFERENCES: readonly BundledHandler[] = [
  { name: 'pg-reference', kind: 'reference', engine: 'postgres', file: './postgres/reference.ts' },
  {
    name: 'create-once-pg-reference',
    kind: 'reference',
    operation: 'create-once',
    engine: 'postgres',
    file: './postgres/create-once-reference.ts',
  },
  {
    name: 'powertools-pg',
    kind: 'library',
    engine: 'postgres',
    file: './libraries/postgres/powertools-pg.ts',
  },
  {
    name: 'adjust-balance-pg-reference',
    kind: 'reference',
    operation: 'adjust-balance',
    engine: 'postgres',
    file: './postgres/adjust-balance-reference.ts',
  },
  {
    name: 'pg-key-lock-base',
    kind: 'reference',
    engine: 'postgres',
    file: './postgres/mutants/key-lock-base.ts',
  },
  ...[
    'check-then-act',
    'on-conflict-no-reread',
    'serializable-no-retry',
    'unlock-before-commit',
    'lock-order-inversion',
  ].map(
    (bug): BundledHandler => ({
      name: `pg-${bug}`,
      kind: 'mutant',
      engine: 'postgres',
      file: `./postgres/mutants/${bug}.ts`,
    }),
  ),
];

/**
 * `transfer` on PostgreSQL: its reference and the PostgreSQL mutants of its catalogue
 * (`operations/transfer/postgres/catalogue.ts`), named `transfer-pg-<bug>`.
 */
const TRANSFER_POSTGRES: readonly BundledHandler[] = [
  {
    name: 'transfer-pg-reference',
    kind: 'reference',
    operation: 'transfer',
    engine: 'postgres',
    file: './operations/transfer/postgres/reference.ts',
  },
  ...['lock-order', 'legs-in-two-transactions'].map(
    (bug): BundledHandler => ({
      name: `transfer-pg-${bug}`,
      kind: 'mutant',
      operation: 'transfer',
      engine: 'postgres',
      file: `./operations/transfer/postgres/mutants/${bug}.ts`,
    }),
  ),
];

/** Every bundled handler. Mutants carry their bug in their own `description`. */
export const BUNDLED_HANDLERS: readonly BundledHandler[] = [
  { name: 'reference', kind: 'reference', file: './reference.ts' },
  { name: 'powertools', kind: 'library', file: './libraries/powertools.ts' },
  { name: 'node-idempotency', kind: 'library', file: './libraries/node-idempotency.ts' },
  { name: 'express-idempotency', kind: 'library', file: './libraries/express-idempotency.ts' },
  { name: 'check-then-act', kind: 'mutant', file: './mutants/check-then-act.ts' },
  { name: 'deferred-transaction', kind: 'mutant', file: './mutants/deferred-transaction.ts' },
  { name: 'receipt-after-commit', kind: 'mutant', file: './mutants/receipt-after-commit.ts' },
  { name: 'receipt-error-swallowed', kind: 'mutant', file: './mutants/receipt-error-swallowed.ts' },
  { name: 'version-before-receipt', kind: 'mutant', file: './mutants/version-before-receipt.ts' },
  { name: 'replay-from-current-row', kind: 'mutant', file: './mutants/replay-from-current-row.ts' },
  { name: 'replay-not-flagged', kind: 'mutant', file: './mutants/replay-not-flagged.ts' },
  { name: 'payload-unchecked', kind: 'mutant', file: './mutants/payload-unchecked.ts' },
  {
    name: 'fingerprint-without-target',
    kind: 'mutant',
    file: './mutants/fingerprint-without-target.ts',
  },
  {
    name: 'fingerprint-without-version',
    kind: 'mutant',
    file: './mutants/fingerprint-without-version.ts',
  },
  { name: 'key-without-user', kind: 'mutant', file: './mutants/key-without-user.ts' },
  { name: 'key-without-workspace', kind: 'mutant', file: './mutants/key-without-workspace.ts' },
  { name: 'access-after-receipt', kind: 'mutant', file: './mutants/access-after-receipt.ts' },
  { name: 'workspace-from-receipt', kind: 'mutant', file: './mutants/workspace-from-receipt.ts' },
  { name: 'race-loser-error', kind: 'mutant', file: './mutants/race-loser-error.ts' },
  { name: 'busy-swallowed', kind: 'mutant', file: './mutants/busy-swallowed.ts' },
  ...operationHandlers('create-once', CREATE_ONCE_MUTANTS),
  ...operationHandlers('adjust-balance', ADJUST_BALANCE_MUTANTS),
  ...operationHandlers('transfer', TRANSFER_MUTANTS, './operations/transfer/sqlite'),
  ...POSTGRES_REFERENCES,
  ...TRANSFER_POSTGRES,
];

/** Each operation's mutant catalogue, by operation name. */
const CATALOGUES: Readonly<Record<string, readonly MutantEntry[]>> = {
  'set-interval': MUTANT_CATALOGUE,
  'create-once': CREATE_ONCE_MUTANTS,
  'adjust-balance': ADJUST_BALANCE_MUTANTS,
  transfer: TRANSFER_MUTANTS,
};

/** The mutant catalogue of `operation` (default `set-interval`); empty for a user's own. */
export function catalogueOf(operation = 'set-interval'): readonly MutantEntry[] {
  return CATALOGUES[operation] ?? [];
}

/**
 * A built-in operation's bundled handlers: `<operation>-reference` in
 * `operations/<operation>/reference.ts`, and each catalogued mutant `<operation>-<bug>` in
 * `operations/<operation>/mutants/<bug>.ts`, so the file follows from the name.
 */
function operationHandlers(
  operation: string,
  catalogue: readonly MutantEntry[],
  folder = `./operations/${operation}`,
): BundledHandler[] {
  return [
    {
      name: `${operation}-reference`,
      kind: 'reference',
      operation,
      file: `${folder}/reference.ts`,
    },
    ...catalogue.map(
      (m): BundledHandler => ({
        name: m.name,
        kind: 'mutant',
        operation,
        file: `${folder}/mutants/${m.name.slice(operation.length + 1)}.ts`,
      }),
    ),
  ];
}

/**
 * The absolute path of a bundled handler, or undefined when `name` is not one. Other operations'
 * handlers are named `<operation>-<name>`; with `operation` given, the short name is enough
 * (`reference` is `create-once-reference` for `create-once`).
 */
export function bundledHandlerPath(name: string, operation?: string): string | undefined {
  const entry = bundledHandler(name, operation);
  return entry ? fileURLToPath(siblingModuleUrl(entry.file, import.meta.url)) : undefined;
}

/** The bundled handler `name` of `operation` (see `bundledHandlerPath`). */
export function bundledHandler(name: string, operation?: string): BundledHandler | undefined {
  const ofOperation = (h: BundledHandler) =>
    operation === undefined || (h.operation ?? 'set-interval') === operation;
  const names = operation && operation !== 'set-interval' ? [`${operation}-${name}`, name] : [name];
  for (const n of names) {
    const found = BUNDLED_HANDLERS.find((h) => h.name === n && ofOperation(h));
    if (found) return found;
  }
  return undefined;
}
