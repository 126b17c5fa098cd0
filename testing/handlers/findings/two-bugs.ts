/**
 * Test-only: a handler with two independent bugs, for the all-findings tests: a replay is
 * reported as fresh (the bug of the `replay-not-flagged` mutant) and a reused key replays the
 * old result instead of `keyReuse` (`payload-unchecked`). One run must report them as two
 * findings.
 */
import { defineStepMutant } from '../../../src/handlers/operations/set-interval/sqlite/mutants/define-step-mutant.ts';
import { referenceSteps } from '../../../src/handlers/operations/set-interval/sqlite/set-interval-steps.ts';
import { parseResult } from '../../../src/handlers/operations/set-interval/sqlite/set-interval-world.ts';
import { outcome } from '../../../src/model/outcome.ts';

/** The reference with both bugs in its answer to a stored receipt. */
export default defineStepMutant({
  name: 'two-bugs',
  description: 'Reports a replay as fresh, and replays a reused key instead of refusing it.',
  steps: {
    answerReceipt(db, stored, r) {
      const answer = referenceSteps.answerReceipt(db, stored, r);
      if (answer.kind === 'ok') return outcome.fresh(answer.result);
      return outcome.replayed(parseResult(stored.response));
    },
  },
});
