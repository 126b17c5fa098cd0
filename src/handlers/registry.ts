/**
 * The handlers bundled with receiptcheck, by name: derived from each built-in operation's
 * catalogue (`operations/<operation>/catalogue.ts`: references and mutants, both engines) and
 * the wrapped idempotency libraries. `--handler NAME` looks here before treating NAME as a path.
 */
import { fileURLToPath } from 'node:url';
import { siblingModuleUrl } from '../sibling-module-url.ts';
import type { MutantEntry, OperationCatalogue } from './catalogue.ts';
import type { Engine } from './engine.ts';
import { ADJUST_BALANCE_CATALOGUE } from './operations/adjust-balance/catalogue.ts';
import { CREATE_ONCE_CATALOGUE } from './operations/create-once/catalogue.ts';
import { SET_INTERVAL_CATALOGUE } from './operations/set-interval/catalogue.ts';
import { TRANSFER_CATALOGUE } from './operations/transfer/catalogue.ts';

/** What a bundled handler is for. */
export type BundledKind = 'reference' | 'mutant' | 'library';

/** One bundled handler: its module file and its role. */
export interface BundledHandler {
  readonly name: string;
  readonly kind: BundledKind;
  /** The operation it implements. */
  readonly operation: string;
  /** Its source file, relative to this folder; from the build it is loaded as `.js`. */
  readonly file: string;
  readonly engine: Engine;
}

/** Every built-in operation's catalogue, in the order `receiptcheck operations` lists them. */
export const CATALOGUES: readonly OperationCatalogue[] = [
  SET_INTERVAL_CATALOGUE,
  CREATE_ONCE_CATALOGUE,
  ADJUST_BALANCE_CATALOGUE,
  TRANSFER_CATALOGUE,
];

/** The idempotency libraries wrapped as `set-interval` handlers (`libraries/`). */
const LIBRARIES: readonly BundledHandler[] = [
  ['powertools', 'sqlite', 'powertools.ts'],
  ['node-idempotency', 'sqlite', 'node-idempotency.ts'],
  ['express-idempotency', 'sqlite', 'express-idempotency.ts'],
  ['powertools-pg', 'postgres', 'postgres/powertools-pg.ts'],
].map(([name, engine, file]) => ({
  name: name as string,
  kind: 'library',
  operation: 'set-interval',
  engine: engine as Engine,
  file: `./libraries/${file}`,
}));

/** A catalogue's handlers as registry rows, files relative to this folder. */
function rowsOf(c: OperationCatalogue): BundledHandler[] {
  const row = (kind: BundledKind, h: { name: string; engine: Engine; file: string }) => ({
    name: h.name,
    kind,
    operation: c.operation,
    engine: h.engine,
    file: `./operations/${c.operation}/${h.file}`,
  });
  return [
    ...c.references.map((h) => row('reference', h)),
    ...c.mutants.map((h) => row('mutant', h)),
  ];
}

/** Every bundled handler. Mutants carry their bug in their own `description`. */
export const BUNDLED_HANDLERS: readonly BundledHandler[] = [
  ...CATALOGUES.flatMap(rowsOf),
  ...LIBRARIES,
];

/** The catalogue of the built-in operation `operation`, or undefined for a user's own. */
export function operationCatalogue(operation: string): OperationCatalogue | undefined {
  return CATALOGUES.find((c) => c.operation === operation);
}

/**
 * The mutant catalogue of `operation` (default `set-interval`) on `engine` (default SQLite);
 * empty for a user's own operation.
 */
export function catalogueOf(
  operation = 'set-interval',
  engine: Engine = 'sqlite',
): readonly MutantEntry[] {
  return (operationCatalogue(operation)?.mutants ?? [])
    .filter((m) => m.engine === engine)
    .map(({ name, bug, realWorldClass, mode }) => ({ name, bug, realWorldClass, mode }));
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
  const ofOperation = (h: BundledHandler) => operation === undefined || h.operation === operation;
  const names = operation ? [`${operation}-${name}`, name] : [name];
  for (const n of names) {
    const found = BUNDLED_HANDLERS.find((h) => h.name === n && ofOperation(h));
    if (found) return found;
  }
  return undefined;
}
