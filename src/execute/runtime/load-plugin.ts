/**
 * Loads a handler plugin by bundled name or by path, and checks that it fits the interface,
 * naming exactly what is missing. Used by the CLI, the API and every worker.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ReceiptcheckError } from '../../errors.ts';
import { type AnyHandlerPlugin, ENGINES } from '../../handlers/engine.ts';
import { missingPackageError } from '../../handlers/optional-packages.ts';
import { type HandlerPlugin, REQUIRED_FUNCTIONS } from '../../handlers/plugin.ts';
import { isPostgresPlugin } from '../../handlers/postgres/plugin.ts';
import { bundledHandlerPath } from '../../handlers/registry.ts';
import { isServicePath } from '../service/service-path.ts';
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
  if (!existsSync(path) && isServicePath(path))
    throw new ReceiptcheckError(
      'E_SERVICE_DESCRIPTION',
      `service description ${handler} does not exist (looked at ${path})`,
    );
  if (!existsSync(path)) {
    throw new ReceiptcheckError(
      'E_HANDLER_NOT_FOUND',
      `handler "${handler}" is neither an existing file (looked at ${path}) nor a bundled ${operation ?? 'set-interval'} handler; run \`receiptcheck mutants --list${operation ? ` --operation ${operation}` : ''}\` for bundled names`,
    );
  }
  // Node would name its own resolver's file for a folder (`… imported from …/import-plugin-module.js`).
  if (statSync(path).isDirectory())
    throw new ReceiptcheckError(
      'E_HANDLER_NOT_FOUND',
      `handler "${handler}" is a folder (${path}); name the plugin's file, such as ${handler.replace(/\/+$/, '')}/my-handler.ts`,
    );
  return path;
}

const cache = new Map<string, Promise<AnyHandlerPlugin>>();

/**
 * Imports the module at `path` once and validates its default export, a SQLite plugin: what
 * the worker threads load (PostgreSQL plugins run on this thread, `loadAnyPlugin`).
 */
export async function loadPlugin(path: string): Promise<HandlerPlugin> {
  const plugin = await loadAnyPlugin(path);
  if (isPostgresPlugin(plugin))
    throw new ReceiptcheckError(
      'E_HANDLER_SHAPE',
      `handler "${plugin.name}" (${path}) is a PostgreSQL plugin, which this mode cannot run on SQLite; run it through checkHandler or \`receiptcheck run\``,
    );
  return plugin;
}

/** Imports the module at `path` once and validates its default export, of either engine. */
export function loadAnyPlugin(path: string): Promise<AnyHandlerPlugin> {
  let loaded = cache.get(path);
  if (!loaded) {
    loaded = importPlugin(path);
    cache.set(path, loaded);
    loaded.catch(() => cache.delete(path));
  }
  return loaded;
}

async function importPlugin(path: string): Promise<AnyHandlerPlugin> {
  // A service description is not a module: it describes a service the runner starts.
  if (isServicePath(path)) return (await import('../service/load-service.ts')).loadService(path);
  let mod: { default?: unknown };
  try {
    mod = await importPluginModule(path);
  } catch (thrown) {
    // A bundled library plugin whose library is not installed: say what to install.
    const missing = missingPackageError(thrown);
    if (missing) throw missing;
    const why = describeLoadFailure(thrown, path);
    throw new ReceiptcheckError(
      'E_HANDLER_LOAD',
      `handler module ${path} could not be loaded: ${why.location ? `${why.location}: ` : ''}${why.message}${why.truncated ? ' (--verbose shows the whole error)' : ''}`,
      { cause: thrown },
    );
  }
  return validatePlugin(mod.default, path);
}

/**
 * Checks a default export against `HandlerPlugin` (or `PostgresHandlerPlugin`, when it says
 * `engine: 'postgres'`); throws a coded error naming what is wrong.
 */
export function validatePlugin(value: unknown, source: string): AnyHandlerPlugin {
  if (value === undefined || value === null) {
    throw new ReceiptcheckError(
      'E_HANDLER_NO_DEFAULT',
      `handler module ${source} has no default export; export default defineHandler({...})`,
    );
  }
  // A CommonJS module that exports nothing (a `.ts` file without `export default` in a project
  // not marked ESM) is imported with its empty `module.exports` as the default.
  if (isEmptyPlainObject(value)) {
    throw new ReceiptcheckError(
      'E_HANDLER_NO_DEFAULT',
      `handler module ${source} has no default export (it exports nothing); export default defineHandler({...})`,
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
  if (plugin.engine !== undefined && !ENGINES.includes(plugin.engine as never)) {
    throw new ReceiptcheckError(
      'E_HANDLER_SHAPE',
      `handler "${plugin.name}" (${source}): "engine" must be ${ENGINES.map((e) => `"${e}"`).join(' or ')} when given, not ${JSON.stringify(plugin.engine)}`,
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
  if (plugin.engine === 'postgres' && plugin.replayable !== undefined) {
    throw new ReceiptcheckError(
      'E_HANDLER_SHAPE',
      `handler "${plugin.name}" (${source}): "replayable" is for SQLite plugins; a PostgreSQL plugin leaves it out`,
    );
  }
  return value as AnyHandlerPlugin;
}

/** Whether `value` is `{}`: a plain object with no keys of its own. */
function isEmptyPlainObject(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    Reflect.ownKeys(value).length === 0
  );
}
