/**
 * Builds an operation's SQLite handler from its parts: the generic prechecks (scope, then
 * validation by the spec), one transaction, and the steps. The reference uses the contract's
 * steps; a mutant (`defineOperationMutant`) swaps a step, the transaction body, the transaction
 * style, or everything after the prechecks, so each mutant file holds only its bug.
 */
import type { CallRequest } from '../../model/events.ts';
import type { OperationSpec } from '../../model/operation.ts';
import { type Outcome, outcome } from '../../model/outcome.ts';
import { invalidField } from '../../model/validate.ts';
import type { Fixture, Principal } from '../../model/world.ts';
import { type Connection, defineHandler, type HandlerPlugin } from '../plugin.ts';
import {
  type Caller,
  type OperationSql,
  type OperationSteps,
  referenceStepsOf,
  runOperationSteps,
  type ValidCall,
} from './operation-steps.ts';
import type { SqliteWorld } from './operation-world.ts';
import { inTransaction, type TransactionStyle } from './transaction.ts';

/** One operation's handler parts: its SQL and its world. */
export interface OperationParts<R extends ValidCall> {
  readonly op: OperationSql<R>;
  readonly world: SqliteWorld;
}

/**
 * Rules 1–2: the refusal for a principal without the operation's scope, or the first invalid
 * field; undefined when the call may proceed (its request is then a valid `R`).
 */
export function precheckOf(
  spec: OperationSpec,
  principal: Principal,
  request: CallRequest,
): Outcome | undefined {
  if (!principal.scopes.includes(spec.scope)) return outcome.refused('forbidden');
  const field = invalidField(request, spec);
  return field ? outcome.invalid(field) : undefined;
}

/** What a mutant changes; anything left out is the reference's. */
export interface OperationMutant<R extends ValidCall> {
  readonly name: string;
  /** Its bug, in one line (the catalogue's `bug`). */
  readonly description: string;
  readonly steps?: Partial<OperationSteps<R>>;
  /** The transaction body, in place of the contract's order (`runOperationSteps`). */
  readonly body?: (db: Connection, caller: Caller, r: R, steps: OperationSteps<R>) => Outcome;
  /** The transaction style (default: `BEGIN IMMEDIATE`, write failures as `error`). */
  readonly style?: (r: R) => TransactionStyle;
  /** Everything after the prechecks, transaction included: for bugs that straddle the transaction. */
  readonly call?: (db: Connection, caller: Caller, r: R, steps: OperationSteps<R>) => Outcome;
}

/** What a call may change: everything but the prechecks. */
export type CallChanges<R extends ValidCall> = Omit<OperationMutant<R>, 'name' | 'description'>;

/**
 * A plugin's `call` for `op`: the prechecks, then one `BEGIN IMMEDIATE` transaction running the
 * contract's steps; `changes` (a mutant's) replace any of those.
 */
export function operationCall<R extends ValidCall>(
  op: OperationSql<R>,
  changes: CallChanges<R> = {},
): HandlerPlugin<Fixture>['call'] {
  const steps: OperationSteps<R> = { ...referenceStepsOf(op), ...changes.steps };
  const body = changes.body ?? runOperationSteps;
  const after =
    changes.call ??
    ((db: Connection, caller: Caller, r: R, s: OperationSteps<R>) =>
      inTransaction(db, () => body(db, caller, r, s), changes.style?.(r)));
  return (db, principal, request) =>
    precheckOf(op.spec, principal, request) ?? after(db, principal, request as unknown as R, steps);
}

/** A plugin for `parts.op`'s operation with `mutant`'s changes to the reference's call. */
export function defineOperationMutant<R extends ValidCall>(
  parts: OperationParts<R>,
  mutant: OperationMutant<R>,
): HandlerPlugin<Fixture> {
  return defineHandler<Fixture>({
    name: mutant.name,
    description: mutant.description,
    operation: parts.op.spec,
    // Every mutant's statements depend only on its arguments and the database.
    replayable: true,
    ...parts.world,
    call: operationCall(parts.op, mutant),
  });
}
