/**
 * One operation's bundled handlers as a registry: by name, the plugin itself (for tests and
 * in-process use), and the `BundledHandler` rows `registry.ts` lists (for loading by file in a
 * worker). `registry.ts` derives the rows from the catalogue (a mutant named `<operation>-<bug>`
 * lives in `<operation>/mutants/<bug>.ts`); this holds each plugin to its row.
 */
import type { HandlerPlugin } from '../plugin.ts';
import { BUNDLED_HANDLERS, type BundledHandler } from '../registry.ts';

/** An operation's reference and mutants, by name and as bundled-handler rows. */
export interface OperationRegistry {
  readonly handlers: ReadonlyMap<string, HandlerPlugin>;
  /** Files relative to `src/handlers/`, as `BUNDLED_HANDLERS` names them. */
  readonly bundled: readonly BundledHandler[];
}

/**
 * The registry of `operation`'s handlers; throws if a plugin's name is not the one
 * `BUNDLED_HANDLERS` gives its file (`<operation>-reference`, `<operation>-<bug>`).
 */
export function operationRegistry(
  operation: string,
  reference: HandlerPlugin,
  mutants: readonly HandlerPlugin[],
): OperationRegistry {
  const bundled = BUNDLED_HANDLERS.filter((h) => h.operation === operation);
  for (const p of [reference, ...mutants]) {
    if (!bundled.some((b) => b.name === p.name))
      throw new Error(`${p.name} is not a bundled ${operation} handler (see registry.ts)`);
  }
  return { handlers: new Map([reference, ...mutants].map((p) => [p.name, p])), bundled };
}
