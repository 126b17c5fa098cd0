/**
 * The handlers bundled with receiptcheck, by name: the reference, the mutant catalogue and the
 * wrapped idempotency libraries. `--handler NAME` looks here before treating NAME as a path.
 */
import { fileURLToPath } from 'node:url';

/** What a bundled handler is for. */
export type BundledKind = 'reference' | 'mutant' | 'library';

/** One bundled handler: its module file and its role. */
export interface BundledHandler {
  readonly name: string;
  readonly kind: BundledKind;
  /** Path relative to this folder. */
  readonly file: string;
}

/** Every bundled handler. Mutants carry their bug in their own `description`. */
export const BUNDLED_HANDLERS: readonly BundledHandler[] = [
  { name: 'reference', kind: 'reference', file: './reference.ts' },
];

/** The absolute path of a bundled handler, or undefined when `name` is not one. */
export function bundledHandlerPath(name: string): string | undefined {
  const entry = BUNDLED_HANDLERS.find((h) => h.name === name);
  return entry ? fileURLToPath(new URL(entry.file, import.meta.url)) : undefined;
}
