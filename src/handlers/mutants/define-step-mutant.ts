/**
 * Declares a mutant that is the reference handler with some transaction steps replaced: same
 * prechecks, same `BEGIN IMMEDIATE` transaction, same error mapping. Most catalogue entries are
 * one such replacement, which keeps each mutant's file down to its bug.
 */
import { defineHandler, type HandlerPlugin } from '../plugin.ts';
import { inImmediateTransaction, precheck } from '../reference.ts';
import { referenceSteps, runSteps, type TransactionSteps } from '../reference-steps.ts';
import { sqliteWorld } from '../sqlite-world.ts';

/** What a step mutant changes: its name, its bug in one line, and the steps it replaces. */
export interface StepMutant {
  readonly name: string;
  readonly description: string;
  readonly steps: Partial<TransactionSteps>;
}

/** A plugin that runs the reference with `mutant.steps` swapped in. */
export function defineStepMutant(mutant: StepMutant): HandlerPlugin {
  const steps: TransactionSteps = { ...referenceSteps, ...mutant.steps };
  return defineHandler({
    name: mutant.name,
    description: mutant.description,
    ...sqliteWorld,
    call(db, principal, request) {
      const r = precheck(principal, request);
      if ('kind' in r) return r;
      return inImmediateTransaction(db, () => runSteps(db, principal, r, steps));
    },
  });
}
