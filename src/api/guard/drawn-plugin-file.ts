/**
 * Writes a guard case as a plugin module: a file that imports the generic handler's factory,
 * holds the case's data (the drawn spec, the engine, the id rule) and default-exports the
 * handler built from it. The harness loads a plugin by path on every thread, so this is how a
 * drawn spec reaches the workers; saved beside a case file, it makes the case replay.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DrawnCase } from '../../handlers/generic/drawn-plugin.ts';
import {
  describeDrawnPolicy,
  drawnPluginName,
  needsZod,
} from '../../handlers/generic/drawn-plugin.ts';
import { siblingModuleUrl } from '../../sibling-module-url.ts';

/** The module and export that build a case's handler (default: the correct generic handler). */
export interface PluginFactory {
  readonly module: URL;
  /** Called as `factory(case, zodFieldOf)`. */
  readonly exportName: string;
}

/** The correct generic handler's factory. */
export const DRAWN_PLUGIN_FACTORY: PluginFactory = {
  module: siblingModuleUrl('../../handlers/generic/drawn-plugin.ts', import.meta.url),
  exportName: 'drawnPlugin',
};

/** The zod bridge's builder of drawn zod fields. */
const ZOD_FIELD_MODULE = siblingModuleUrl('../../generate/zod/drawn-zod-field.ts', import.meta.url);

/** The plugin module's text for `c`. */
export function drawnPluginText(
  c: DrawnCase,
  factory: PluginFactory = DRAWN_PLUGIN_FACTORY,
): string {
  const zod = needsZod(c.draw);
  return [
    `// receiptcheck guard: a drawn operation spec and a handler built from it (${c.engine}, created ids: ${c.ids}).`,
    `// Declared policy (the handler's \`policy\`, honoured by it): ${describeDrawnPolicy(c)}.`,
    `// Replay a saved case with: receiptcheck replay <case file>; this file must stay where it is.`,
    `import { ${factory.exportName} as factory } from ${JSON.stringify(factory.module.href)};`,
    ...(zod ? [`import { zodFieldOf } from ${JSON.stringify(ZOD_FIELD_MODULE.href)};`] : []),
    '',
    `export const drawnCase = ${JSON.stringify(c, null, 2)};`,
    '',
    `export default factory(drawnCase${zod ? ', zodFieldOf' : ''});`,
    '',
  ].join('\n');
}

/**
 * Writes `c`'s plugin module into `dir` (which must exist); returns its absolute path, named for
 * the case and, for another factory than the default, the factory.
 */
export function writeDrawnPlugin(
  dir: string,
  c: DrawnCase,
  factory: PluginFactory = DRAWN_PLUGIN_FACTORY,
): string {
  // A module is imported once per path: another factory's handler needs a file of its own.
  const suffix = factory === DRAWN_PLUGIN_FACTORY ? '' : `-${factory.exportName}`;
  const path = join(dir, `${drawnPluginName(c)}${suffix}.mjs`);
  writeFileSync(path, drawnPluginText(c, factory));
  return path;
}
