/**
 * Broken generic handlers for drawn specs, to show the drawn-spec guard is not vacuous: each is
 * the generic SQLite handler (`handlers/generic/generic-sqlite.ts`) with one contract rule
 * broken, built by the same factory signature as the correct one (`drawnPlugin`), so the guard
 * writes them into plugin modules the same way.
 */
import { specFromDraw, type ZodFieldOf } from '../../src/generate/drawn-spec/spec-from-draw.ts';
import type { DrawnCase } from '../../src/handlers/generic/drawn-plugin.ts';
import { drawnPluginName } from '../../src/handlers/generic/drawn-plugin.ts';
import {
  genericSqlitePlugin,
  genericSqliteSql,
} from '../../src/handlers/generic/generic-sqlite.ts';
import type { HandlerPlugin } from '../../src/handlers/plugin.ts';
import { receiptAfterCommit, replayUnflagged } from '../../src/handlers/sqlite/bug-shapes.ts';
import { advanceHarnessClock } from '../../src/handlers/sqlite/harness-clock.ts';
import { referenceStepsOf, runOperationSteps } from '../../src/handlers/sqlite/operation-steps.ts';
import { outcome } from '../../src/model/outcome.ts';

/** The receipt is inserted after the effect has committed, outside its transaction. */
export function receiptOutsideTransaction(c: DrawnCase, zodField?: ZodFieldOf): HandlerPlugin {
  const spec = specFromDraw(c.draw, zodField);
  const steps = referenceStepsOf(genericSqliteSql(spec, c.ids));
  return genericSqlitePlugin(
    spec,
    `${drawnPluginName(c)}-receipt-after-commit`,
    c.ids,
    receiptAfterCommit(steps),
    c.policy,
  );
}

/** The precondition is checked before the receipt lookup, so a retry after success is refused. */
export function preconditionBeforeReceipt(c: DrawnCase, zodField?: ZodFieldOf): HandlerPlugin {
  const spec = specFromDraw(c.draw, zodField);
  return genericSqlitePlugin(
    spec,
    `${drawnPluginName(c)}-precondition-first`,
    c.ids,
    {
      body(db, caller, r, s) {
        if (!s.canAccess(db, caller, r)) return outcome.refused('unavailable');
        const refusal = s.checkPrecondition(db, caller, r);
        if (refusal) return outcome.refused(refusal);
        return runOperationSteps(db, caller, r, s);
      },
    },
    c.policy,
  );
}

/** A replay is answered as fresh: every spec's first retry shows it. */
export function replayAsFresh(c: DrawnCase, zodField?: ZodFieldOf): HandlerPlugin {
  const spec = specFromDraw(c.draw, zodField);
  const steps = referenceStepsOf(genericSqliteSql(spec, c.ids));
  return genericSqlitePlugin(
    spec,
    `${drawnPluginName(c)}-replay-as-fresh`,
    c.ids,
    replayUnflagged(steps),
    c.policy,
  );
}

/**
 * Declares the case's receipt lifetime but never lets a receipt lapse: the clock moves, the
 * receipts stay, so a retry after the lifetime is replayed where it must run as new.
 */
export function receiptsNeverLapse(c: DrawnCase, zodField?: ZodFieldOf): HandlerPlugin {
  const spec = specFromDraw(c.draw, zodField);
  const plugin = genericSqlitePlugin(
    spec,
    `${drawnPluginName(c)}-receipts-never-lapse`,
    c.ids,
    {},
    c.policy,
  );
  return { ...plugin, advanceClock: advanceHarnessClock };
}

/** Declares stored refusals and stores none: the contract's steps under `storesRefusals`. */
export function refusalsNeverStored(c: DrawnCase, zodField?: ZodFieldOf): HandlerPlugin {
  const spec = specFromDraw(c.draw, zodField);
  return genericSqlitePlugin(
    spec,
    `${drawnPluginName(c)}-refusals-never-stored`,
    c.ids,
    { body: runOperationSteps },
    c.policy,
  );
}
