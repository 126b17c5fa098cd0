/**
 * Expected versions, which only a versioned operation has (`set-interval`): a field that names
 * the version the client expects of a target row carrying a `version`. New intents of such an
 * operation choose a version from what the client last saw (`VersionChoice`); other operations
 * have no such choice and their intents carry none. Pure.
 */
import type { OperationSpec } from '../model/operation.ts';

/** The argument that carries the expected version, by the contract's name for it. */
const VERSION_FIELD = 'expectedVersion';

/**
 * The field holding `spec`'s expected version, or undefined when it has none: the spec must
 * name `expectedVersion` among its fields and `version` among its rows' fields.
 */
export function versionField(spec: OperationSpec): string | undefined {
  const named = spec.fields.some((f) => f.name === VERSION_FIELD && f.rule.kind === 'id');
  return named && spec.rowFields.includes('version') ? VERSION_FIELD : undefined;
}

/** The `version` of a row or result of a versioned operation (1 when it has none). */
export function versionOf(row: Readonly<Record<string, unknown>> | undefined): number {
  const v = row?.version;
  return typeof v === 'number' ? v : 1;
}
