/**
 * The operation a saved case is of, made known before anything resolves it, and the case held to
 * it. A user's own operation is registered only by the plugin that declares it, so a case of one
 * loads its handler first (the override, else the one the file names): `replay`, `scenarios` and
 * `report` then read such a case as they read a built-in operation's. A case that does not fit
 * its operation (`report/case-fit.ts`) is refused before anything runs.
 */
import { resolve } from 'node:path';
import { isReceiptcheckError, ReceiptcheckError } from '../errors.ts';
import { loadAnyPlugin, resolveHandlerPath } from '../execute/runtime/load-plugin.ts';
import { pluginOperation } from '../handlers/plugin.ts';
import type { Step } from '../model/events.ts';
import type { OperationSpec } from '../model/operation.ts';
import { DEFAULT_OPERATION, knownOperation, operationNamed } from '../model/operations/index.ts';
import type { FixtureWithPolicy } from '../model/state.ts';
import { caseFitProblem } from '../report/case-fit.ts';

/** What a saved case (a case file or a soak history) says about its operation. */
export interface SavedCase {
  /** The file, for messages. */
  readonly source: string;
  /** The handler the file names; undefined when it names none. */
  readonly handler: string | undefined;
  readonly fixture: FixtureWithPolicy;
  readonly steps: readonly Step[];
}

/** Where the handler comes from when the file's is not the one to load. */
export interface CaseOperationOptions {
  /** A handler given on the command line, loaded instead of the file's. */
  readonly handler?: string;
  /** Resolve a relative handler path from here (default: the process's cwd). */
  readonly cwd?: string;
}

/**
 * The operation of `c`, known from here on (its plugin loaded when it is a user's own). Throws
 * `E_HANDLER_NOT_FOUND` when the plugin that defines it is not where the file says,
 * `E_BAD_SCENARIO` when the handler implements another operation or the case does not fit.
 */
export async function caseOperation(
  c: SavedCase,
  options: CaseOperationOptions = {},
): Promise<OperationSpec> {
  return fitted(c, await operationOfCase(c, options));
}

/**
 * `caseOperation` for an operation already known in this process (built in, or its plugin
 * loaded), without loading anything: throws `E_USAGE` naming the known operations otherwise.
 */
export function knownCaseOperation(c: SavedCase): OperationSpec {
  return fitted(c, operationNamed(c.fixture.operation));
}

function fitted(c: SavedCase, spec: OperationSpec): OperationSpec {
  const problem = caseFitProblem(c.fixture, c.steps, spec);
  if (problem) throw new ReceiptcheckError('E_BAD_SCENARIO', `${c.source} ${problem}`);
  return spec;
}

async function operationOfCase(
  c: SavedCase,
  options: CaseOperationOptions,
): Promise<OperationSpec> {
  const name = c.fixture.operation;
  if (name === undefined) return DEFAULT_OPERATION;
  const known = knownOperation(name);
  if (known) return known;
  const handler = options.handler ?? c.handler;
  const of = `${c.source} is a case of "${name}", an operation its plugin declares`;
  if (handler === undefined)
    throw new ReceiptcheckError(
      'E_BAD_SCENARIO',
      `${of}, and it names no handler; pass --handler PATH, that plugin's file`,
    );
  let path: string;
  try {
    path = resolveHandlerPath(handler, options.cwd);
  } catch (thrown) {
    if (!isReceiptcheckError(thrown) || thrown.code !== 'E_HANDLER_NOT_FOUND') throw thrown;
    throw new ReceiptcheckError(
      'E_HANDLER_NOT_FOUND',
      `${of}, and that plugin, "${handler}", is not there (looked at ${resolve(options.cwd ?? process.cwd(), handler)}); run from the folder the case was saved from, or pass --handler PATH`,
    );
  }
  const implemented = pluginOperation(await loadAnyPlugin(path));
  const now = knownOperation(name);
  if (now) return now;
  throw new ReceiptcheckError(
    'E_BAD_SCENARIO',
    `${of}, but handler "${handler}" implements "${implemented.name}"; pass --handler PATH, the plugin that declares "${name}"`,
  );
}
