/**
 * What resolving moves for one fixture starts from, built once per fixture and set of excluded
 * input classes (`resolve.ts`). Pure.
 */
import { type OperationSpec, type Row, targetRows } from '../model/operation.ts';
import { initialState, type ModelState } from '../model/state.ts';
import type { Fixture } from '../model/world.ts';
import type { Allows } from './conflict-values.ts';
import type { ClassName } from './field-classes.ts';
import { clientsOutside, fieldClasses } from './input-classes.ts';
import { type ValueField, valueFields } from './value-fields.ts';
import { versionField } from './versioning.ts';

/** An id no fixture row has, so some calls target a missing row. */
export const MISSING_ID = 999;

/**
 * What every resolution for one fixture and one set of excluded classes starts from. It derives
 * from the fixture alone, and every sequence (and every shrink) resolves again, so it is built
 * once per fixture and kept: rebuilding it was a tenth of generation's time. The state is shared
 * safely because the model's `step` never changes the state it is given.
 */
export interface ResolverBasis {
  readonly excluded: ReadonlySet<ClassName>;
  readonly spec: OperationSpec;
  readonly initial: ModelState;
  /** Clients whose principal is in no excluded class. */
  readonly allowed: readonly number[];
  /** The fixture's target rows, which moves, deletes and missing targets pick among. */
  readonly rows: readonly Row[];
  /** The target rows' ids and `MISSING_ID`, which `anyTarget` picks among. */
  readonly anyIds: readonly number[];
  readonly fields: readonly ValueField[];
  /** The expected version's field, for a versioned operation. */
  readonly version: string | undefined;
  /** Whether a value may be sent in a field: it falls in no excluded class. */
  readonly allows: Allows;
}

/** Bases by operation, then by fixture, then by the excluded classes (sorted, NUL-joined). */
const bases = new WeakMap<OperationSpec, WeakMap<Fixture, Map<string, ResolverBasis>>>();

/** The basis for `fixture` of `spec` without `excluded`'s classes, built on first use. */
export function resolverBasis(
  fixture: Fixture,
  spec: OperationSpec,
  excluded: readonly ClassName[],
): ResolverBasis {
  let byFixture = bases.get(spec);
  if (!byFixture) {
    byFixture = new WeakMap();
    bases.set(spec, byFixture);
  }
  let byExcluded = byFixture.get(fixture);
  if (!byExcluded) {
    byExcluded = new Map();
    byFixture.set(fixture, byExcluded);
  }
  const key = excluded.length === 0 ? '' : [...new Set(excluded)].sort().join('\u0000');
  let basis = byExcluded.get(key);
  if (!basis) {
    const excludedSet = new Set(excluded);
    const rows = targetRows(fixture, spec);
    basis = {
      excluded: excludedSet,
      spec,
      initial: initialState(fixture, spec),
      allowed: clientsOutside(fixture, spec, excludedSet),
      rows,
      anyIds: [...rows.map((a) => a.id), MISSING_ID],
      fields: valueFields(spec, rows),
      version: versionField(spec),
      allows: (field, value) =>
        excludedSet.size === 0 ||
        !fieldClasses(field, value, [], spec).some((c) => excludedSet.has(c)),
    };
    byExcluded.set(key, basis);
  }
  return basis;
}
