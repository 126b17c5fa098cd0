/**
 * Test-only: declares a handler that is the reference with one input handled the way real
 * handlers get it wrong: its rules 1–4 replaced (a scope or validation check), or some of its
 * transaction steps (how a key or a workspace is compared). Like the mutant catalogue's
 * `defineStepMutant`, so each file shows only its bug. Each file also exports `CAUGHT_BY`, the
 * input classes that catch it. Not shipped: these handlers exist to show that each input class
 * is necessary (`testing/input-bugs.test.ts`), not to grade a handler.
 */

import { precheck as referencePrecheck } from '../../../src/handlers/operations/set-interval/sqlite/set-interval-reference.ts';
import {
  referenceSteps,
  runSteps,
  type TransactionSteps,
} from '../../../src/handlers/operations/set-interval/sqlite/set-interval-steps.ts';
import { sqliteWorld } from '../../../src/handlers/operations/set-interval/sqlite/set-interval-world.ts';
import { defineHandler, type HandlerPlugin } from '../../../src/handlers/plugin.ts';
import { inImmediateTransaction } from '../../../src/handlers/sqlite/transaction.ts';

/** One input bug: its name, the bug in one line, and what it replaces. */
export interface InputBug {
  readonly name: string;
  readonly description: string;
  /** Rules 1–4 as this handler applies them; default the reference's. */
  readonly precheck?: typeof referencePrecheck;
  readonly steps?: Partial<TransactionSteps>;
}

/** A plugin that runs the reference with the bug's precheck and steps swapped in. */
export function defineInputBug(bug: InputBug): HandlerPlugin {
  const steps: TransactionSteps = { ...referenceSteps, ...bug.steps };
  const precheck = bug.precheck ?? referencePrecheck;
  return defineHandler({
    name: bug.name,
    description: bug.description,
    ...sqliteWorld,
    replayable: true,
    call(db, principal, request) {
      const r = precheck(principal, request);
      if ('kind' in r) return r;
      return inImmediateTransaction(db, () => runSteps(db, principal, r, steps));
    },
  });
}
