/**
 * One operation's bundled handlers as a registry: by name, the plugin itself (for tests and
 * in-process use), and the `BundledHandler` rows `registry.ts` lists (for loading by file in a
 * worker). A mutant named `<operation>-<bug>` lives in `<operation>/mutants/<bug>.ts`, so the
 * file follows from the name and the two cannot drift.
 */
import type { HandlerPlugin } from '../plugin.ts';
import type { BundledHandler } from '../registry.ts';

/** An operation's reference and mutants, by name and as bundled-handler rows. */
export interface OperationRegistry {
  readonly handlers: ReadonlyMap<string, HandlerPlugin>;
  /** Files relative to `src/handlers/`, as `BUNDLED_HANDLERS` names them. */
  readonly bundled: readonly BundledHandler[];
}

/** The registry of `operation`'s handlers; throws if a mutant is not named `<operation>-…`. */
export function operationRegistry(
  operation: string,
  reference: HandlerPlugin,
  mutants: readonly HandlerPlugin[],
): OperationRegistry {
  const prefix = `${operation}-`;
  const folder = `./operations/${operation}`;
  const bundled: BundledHandler[] = [
    { name: reference.name, kind: 'reference', file: `${folder}/reference.ts` },
    ...mutants.map((m): BundledHandler => {
      if (!m.name.startsWith(prefix)) throw new Error(`mutant ${m.name} must start with ${prefix}`);
      return {
        name: m.name,
        kind: 'mutant',
        file: `${folder}/mutants/${m.name.slice(prefix.length)}.ts`,
      };
    }),
  ];
  return { handlers: new Map([reference, ...mutants].map((p) => [p.name, p])), bundled };
}
