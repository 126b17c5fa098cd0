/**
 * Loads a handler plugin by bundled name or by path, and checks that it fits the interface,
 * naming exactly what is missing. Used by the CLI, the API and every worker.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ReceiptcheckError } from '../errors.ts';
import { type HandlerPlugin, REQUIRED_FUNCTIONS } from '../handlers/plugin.ts';
import { bundledHandlerPath } from '../handlers/registry.ts';
import { importPluginModule } from './import-plugin-module.ts';
import { describeLoadFailure } from './load-error.ts';

/** Resolves `reference`, a mutant's name or a file path to an absolute module path. */
export function resolveHandlerPath(
  handler: string,
  cwd = process.cwd(),
  operation?: string,
): string {
  const bundled = bundledHandlerPath(handler, operation);
  if (bundled) return bundled;
  const path = resolve(cwd, handler);
  if (!existsSync(path)) {
    throw new ReceiptcheckError(
      'E_HANDLER_NOT_FOUND',
      `handler "${handler}" is neither a bundled ${operation ?? 'set-interval'} handler nor an existing file (looked at ${path}); run \`receiptcheck mutants --list${operation ? ` --operation ${operation}` : ''}\` for bundled names`,
    );
  }
  return path;
}

const cache = new Map<string, Promise<HandlerPlugin>>();

/** Imports the module at `path` once and validates its default export. */
export function loadPlugin(path: string): Promise<HandlerPlugin> {
  let loaded = cache.get(path);
  if (!loaded) {
    loaded = importPlugin(path);
    cache.set(path, loaded);
    loaded.catch(() => cache.delete(path));
  }
  return loaded;
}

async function importPlugin(path: string): Promise<HandlerPlugin> {
  let mod: { default?: unknown };
  try {
    mod = await importPluginModule(path);
  } catch (thrown) {
    const why = describeLoadFailure(thrown, path);
    throw new ReceiptcheckError(
      'E_HANDLER_LOAD',
      `handler module ${path} could not be loaded: ${why.location ? `${why.location}: ` : ''}${why.message}${why.truncated ? ' (--verbose shows the whole error)' : ''}`,
      { cause: thrown },
    );
  }
  return validatePlugin(mod.default, path);
}

/** Checks a default export against `HandlerPlugin`; throws a coded error naming what is wrong. */
export function validatePlugin(value: unknown, source: string): HandlerPlugin {
  if (value === undefined || value === null) {
    throw new ReceiptcheckError(
      'E_HANDLER_NO_DEFAULT',
      `handler module ${source} has no default export; export default defineHandler({...})`,
    );
  }
  if (typeof value !== 'object') {
    throw new ReceiptcheckError(
      'E_HANDLER_SHAPE',
      `handler module ${source}: the default export is a ${typeof value}, not a plugin object`,
    );
  }
  const plugin = value as Record<string, unknown>;
  if (typeof plugin.name !== 'string' || plugin.name === '') {
    throw new ReceiptcheckError(
      'E_HANDLER_SHAPE',
      `handler module ${source}: the plugin has no "name" string`,
    );
  }
  for (const fn of REQUIRED_FUNCTIONS) {
    if (typeof plugin[fn] !== 'function') {
      throw new ReceiptcheckError(
        'E_HANDLER_SHAPE',
        `handler "${plugin.name}" (${source}) is missing the function "${fn}"`,
      );
    }
  }
  if (plugin.recreate !== undefined && typeof plugin.recreate !== 'function') {
    throw new ReceiptcheckError(
      'E_HANDLER_SHAPE',
      `handler "${plugin.name}" (${source}): "recreate" must be a function when given`,
    );
  }
  if (plugin.advanceClock !== undefined && typeof plugin.advanceClock !== 'function') {
    throw new ReceiptcheckError(
      'E_HANDLER_SHAPE',
      `handler "${plugin.name}" (${source}): "advanceClock" must be a function when given`,
    );
  }
  if (plugin.replayable !== undefined && typeof plugin.replayable !== 'boolean') {
    throw new ReceiptcheckError(
      'E_HANDLER_SHAPE',
      `handler "${plugin.name}" (${source}): "replayable" must be true or false when given`,
    );
  }
  return value as HandlerPlugin;
}
