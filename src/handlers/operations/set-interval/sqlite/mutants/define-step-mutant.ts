/**
 * Declares a mutant that is the reference handler with some transaction steps replaced, a step
 * run first (one of the reference's own checks, out of its place), or its transaction style
 * (begin statement, error mapping) changed: same prechecks otherwise. Most catalogue entries are
 * one such change, which keeps each mutant's file down to its bug.
 */
import type { Outcome } from '../../../../../model/outcome.ts';
import type { Connection } from '../../../../plugin.ts';
import { defineHandler, type HandlerPlugin } from '../../../../plugin.ts';
import { inTransaction, type TransactionStyle } from '../../../../sqlite/transaction.ts';
import { precheck } from '../set-interval-reference.ts';
import {
  type Caller,
  referenceSteps,
  runSteps,
  type TransactionSteps,
  type ValidRequest,
} from '../set-interval-steps.ts';
import { sqliteWorld } from '../set-interval-world.ts';

/** What a step mutant changes: its name, its bug in one line, and the steps or style it replaces. */
export interface StepMutant {
  readonly name: string;
  readonly description: string;
  readonly steps?: Partial<TransactionSteps>;
  /** Runs first inside the transaction; an outcome it returns is the answer, else the steps run. */
  readonly first?: (db: Connection, principal: Caller, r: ValidRequest) => Outcome | undefined;
  /** The transaction style for a call (default: the reference's `BEGIN IMMEDIATE`, write failures as `error`). */
  readonly style?: (r: ValidRequest) => TransactionStyle;
}

/** A plugin that runs the reference with `mutant.first`, `mutant.steps` and `mutant.style` swapped in. */
export function defineStepMutant(mutant: StepMutant): HandlerPlugin {
  const steps: TransactionSteps = { ...referenceSteps, ...mutant.steps };
  return defineHandler({
    name: mutant.name,
    description: mutant.description,
    ...sqliteWorld,
    replayable: true,
    call(db, principal, request) {
      const r = precheck(principal, request);
      if ('kind' in r) return r;
      return inTransaction(
        db,
        () => mutant.first?.(db, principal, r) ?? runSteps(db, principal, r, steps),
        mutant.style?.(r),
      );
    },
  });
}
