/**
 * The shape of an operation's catalogue: its bundled correct handlers and mutants on both
 * engines, each with its module file, and for a mutant the bug it carries, the real-world class
 * of mistake it stands for and the cheapest deterministic mode that kills it. Plain data, so
 * `receiptcheck mutants` can list and run a catalogue without loading a handler; the one
 * registry (`registry.ts`) is derived from the catalogues, and tests hold each row to its plugin.
 */
import type { Mode } from '../types/mode.ts';
import type { Engine } from './engine.ts';

/** One catalogued mutant. */
export interface MutantEntry {
  /** Its bundled handler name: `receiptcheck run --handler <name>` runs it. */
  readonly name: string;
  /** The bug, in one line: the plugin's own `description`. */
  readonly bug: string;
  /** The kind of real-world mistake it stands for. */
  readonly realWorldClass: string;
  /** The cheapest deterministic mode that kills it with default runs and seed. */
  readonly mode: Mode;
}

/** A bug the catalogue cannot carry as a mutant, and why. */
export interface UncataloguedBug {
  readonly bug: string;
  readonly reason: string;
}

/** A bundled handler of one operation: its name, engine and module file. */
export interface CataloguedHandler {
  readonly name: string;
  readonly engine: Engine;
  /** Its source file, relative to the operation's folder; from the build it is loaded as `.js`. */
  readonly file: string;
}

/** A catalogued mutant with its engine and file. */
export interface CataloguedMutant extends MutantEntry, CataloguedHandler {}

/** One operation's bundled handlers, both engines. */
export interface OperationCatalogue {
  /** The operation's name, as `OperationSpec.name`. */
  readonly operation: string;
  /** The correct handlers, which must hold: the reference of each engine first. */
  readonly references: readonly CataloguedHandler[];
  readonly mutants: readonly CataloguedMutant[];
  /** Bugs left out on purpose: no generated sequence could tell them from the reference. */
  readonly uncatalogued: readonly UncataloguedBug[];
}

/**
 * Rows for mutants kept as `<engine>/mutants/<bug>.ts`, each file named after the mutant without
 * the `prefix` every name of the catalogue carries (`create-once-`, `pg-`), so the file follows
 * from the name.
 */
export function mutantsIn(
  engine: Engine,
  prefix: string,
  entries: readonly MutantEntry[],
): CataloguedMutant[] {
  return entries.map((m) => {
    if (!m.name.startsWith(prefix)) throw new Error(`mutant ${m.name} lacks its prefix ${prefix}`);
    return { ...m, engine, file: `${engine}/mutants/${m.name.slice(prefix.length)}.ts` };
  });
}
