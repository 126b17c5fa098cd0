/**
 * The built-in operations and the operations plugins brought: looked up by name. A plugin that
 * imports its own spec registers it when it is loaded (on every thread that loads it), so a
 * fixture or case file can name its operation as plain text.
 */
import { ReceiptcheckError } from '../../errors.ts';
import type { OperationSpec } from '../operation.ts';
import { adjustBalance } from './adjust-balance.ts';
import { createOnce } from './create-once.ts';
import { setInterval } from './set-interval.ts';
import { transfer } from './transfer.ts';

/** The built-in operations, the default first. */
export const BUILT_IN_OPERATIONS: readonly OperationSpec[] = [
  setInterval,
  createOnce,
  adjustBalance,
  transfer,
];

/** The operation a plugin or fixture that names none checks. */
export const DEFAULT_OPERATION = setInterval;

const registered = new Map<string, OperationSpec>(BUILT_IN_OPERATIONS.map((s) => [s.name, s]));

/**
 * Makes `spec` findable by name. Registering the same spec again is a no-op; another spec under
 * a taken name is refused, since a case file names its operation by name alone.
 */
export function registerOperation(spec: OperationSpec): void {
  const known = registered.get(spec.name);
  if (known && known !== spec && !sameSpecShape(known, spec)) {
    throw new ReceiptcheckError(
      'E_HANDLER_SHAPE',
      `operation "${spec.name}" is already defined differently; give your spec another name`,
    );
  }
  registered.set(spec.name, spec);
}

/** The operation named `name`, or `E_USAGE` listing the known ones. */
export function operationNamed(name: string | undefined): OperationSpec {
  if (name === undefined) return DEFAULT_OPERATION;
  const spec = registered.get(name);
  if (!spec) {
    throw new ReceiptcheckError(
      'E_USAGE',
      `unknown operation "${name}"; known: ${[...registered.keys()].join(', ')}`,
    );
  }
  return spec;
}

/**
 * The operation named `name` if it is known (built in, or registered by a plugin loaded in this
 * process), else undefined: for a caller that can make it known (by loading the plugin that
 * declares it) before asking `operationNamed`.
 */
export function knownOperation(name: string): OperationSpec | undefined {
  return registered.get(name);
}

/** A spec module loaded twice (two module URLs for one file) gives equal but distinct objects. */
function sameSpecShape(a: OperationSpec, b: OperationSpec): boolean {
  return a.tool === b.tool && a.table === b.table && a.fields.length === b.fields.length;
}
