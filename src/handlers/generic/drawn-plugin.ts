/**
 * The drawn-spec guard's handler: a drawn spec (`SpecDraw`) built into its operation spec and
 * the generic handler for it, on the engine asked for, with the server's id rule asked for. What
 * a guard plugin module default-exports, so every thread that loads the module rebuilds the same
 * spec from the same data.
 */
import { drawHash, type SpecDraw } from '../../generate/drawn-spec/spec-draw.ts';
import { specFromDraw, type ZodFieldOf } from '../../generate/drawn-spec/spec-from-draw.ts';
import type { AnyHandlerPlugin, Engine } from '../engine.ts';
import { genericPostgresPlugin } from './generic-postgres.ts';
import { genericSqlitePlugin } from './generic-sqlite.ts';
import type { ServerIds } from './server-ids.ts';

/** One case of the guard: a drawn spec, the engine, and how the server assigns created ids. */
export interface DrawnCase {
  readonly draw: SpecDraw;
  readonly engine: Engine;
  /** `next` whenever the spec declares `ids: 'rowid'`, which predicts exactly that rule. */
  readonly ids: ServerIds;
}

/** The plugin's name: the spec's hash, the engine and the id rule. */
export function drawnPluginName(c: DrawnCase): string {
  return `guard-${drawHash(c.draw)}-${c.engine}-${c.ids}`;
}

/** Whether `c`'s draw has a zod-derived field (its spec then needs the zod bridge). */
export function needsZod(draw: SpecDraw): boolean {
  return draw.fields.some((f) => f.kind === 'zod');
}

/** The generic handler for `c`'s spec, correct by construction. */
export function drawnPlugin(c: DrawnCase, zodField?: ZodFieldOf): AnyHandlerPlugin {
  const spec = specFromDraw(c.draw, zodField);
  const name = drawnPluginName(c);
  return c.engine === 'postgres'
    ? genericPostgresPlugin(spec, name, c.ids)
    : genericSqlitePlugin(spec, name, c.ids);
}
