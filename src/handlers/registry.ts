/**
 * The handlers bundled with receiptcheck, by name: the reference, the mutant catalogue and the
 * wrapped idempotency libraries. `--handler NAME` looks here before treating NAME as a path.
 */
import { fileURLToPath } from 'node:url';
import { siblingModuleUrl } from '../sibling-module-url.ts';

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
}

/** Every bundled handler. Mutants carry their bug in their own `description`. */
export const BUNDLED_HANDLERS: readonly BundledHandler[] = [
  { name: 'reference', kind: 'reference', file: './reference.ts' },
  { name: 'powertools', kind: 'library', file: './libraries/powertools.ts' },
  { name: 'node-idempotency', kind: 'library', file: './libraries/node-idempotency.ts' },
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
];

/**
 * The absolute path of a bundled handler, or undefined when `name` is not one. Names are per
 * operation (`reference` exists for each): `operation` picks one (default `set-interval`), or
 * the name says it, as `create-once/reference`.
 */
export function bundledHandlerPath(name: string, operation?: string): string | undefined {
  const entry = bundledHandler(name, operation);
  return entry ? fileURLToPath(siblingModuleUrl(entry.file, import.meta.url)) : undefined;
}

/** The bundled handler `name` of `operation` (see `bundledHandlerPath`). */
export function bundledHandler(name: string, operation?: string): BundledHandler | undefined {
  const slash = name.indexOf('/');
  const [op, bare] =
    slash > 0 && !name.includes('.')
      ? [name.slice(0, slash), name.slice(slash + 1)]
      : [operation, name];
  const wanted = op === 'set-interval' ? undefined : op;
  return BUNDLED_HANDLERS.find((h) => h.name === bare && h.operation === wanted);
}
