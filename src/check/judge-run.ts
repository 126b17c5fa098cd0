/**
 * The one judge: whatever mode executed a sequence, its execution record comes here and a verdict
 * goes out. Sequential runs are compared with the model call by call; concurrent runs must be
 * linearizable; scheduled runs are walked in the order the scheduler granted. A run that stopped
 * at a hung call, in any mode, fails with that hang alone: what the stopped call did is unknown,
 * so neither its outcome nor the database after it can be held to the model. Pure.
 */
import type { Step } from '../model/events.ts';
import type { OperationSpec } from '../model/operation.ts';
import type { FixtureWithPolicy } from '../model/state.ts';
import type { Execution, Place, ScheduledExecution } from '../types/execution.ts';
import type { Trace } from '../types/trace.ts';
import type { RunVerdict } from '../types/verdict.ts';
import { checkConcurrentRun } from './check-concurrent-run.ts';
import { checkRun } from './check-run.ts';
import { checkScheduledRun } from './check-scheduled-run.ts';
import type { RunRecord } from './run-record.ts';

/** A verdict, the trace the invariants read, and the serial order it rests on (when the mode has one). */
export type Judgement =
  | { readonly mode: 'sequential'; readonly verdict: RunVerdict; readonly trace: Trace }
  | {
      readonly mode: 'concurrent';
      readonly verdict: RunVerdict;
      readonly trace: Trace;
      /** Entry ids of the linearisation found; absent when there is none. */
      readonly order?: readonly number[];
    }
  | {
      readonly mode: 'scheduled';
      readonly verdict: RunVerdict;
      readonly trace: Trace;
      readonly order: readonly Place[];
      /** Calls that crashed after a commit, read as having left their claim (`claimExpiry`). */
      readonly leftClaim?: readonly Place[];
    };

/**
 * Judges one executed sequence against the model of `spec` started from `fixture`. `walk`: the model's
 * walk over `steps` that generation already made (`RunRecord.walk`), read by sequential runs and
 * by scheduled runs whose groups took effect in lane order.
 */
export function judgeRun(
  fixture: FixtureWithPolicy,
  spec: OperationSpec,
  steps: readonly Step[],
  execution: Execution,
  walk?: RunRecord['walk'],
): Judgement {
  if (execution.hang) {
    const verdict: RunVerdict = {
      verdict: 'failed',
      failures: [{ kind: 'hang', ...execution.hang }],
    };
    if (execution.mode === 'scheduled')
      return { mode: 'scheduled', verdict, trace: scheduledTrace(execution), order: [] };
    if (execution.mode === 'concurrent')
      return { mode: 'concurrent', verdict, trace: execution.trace };
    return { mode: 'sequential', verdict, trace: execution.trace };
  }
  switch (execution.mode) {
    case 'sequential': {
      const { trace } = execution;
      const verdict = checkRun({ fixture, spec, steps, trace, ...(walk ? { walk } : {}) });
      return { mode: 'sequential', verdict, trace };
    }
    case 'concurrent': {
      const { verdict, order } = checkConcurrentRun({ fixture, spec, steps, ...execution });
      return { mode: 'concurrent', verdict, trace: execution.trace, ...(order ? { order } : {}) };
    }
    case 'scheduled': {
      const { lanes, snapshot } = execution;
      return {
        mode: 'scheduled',
        ...checkScheduledRun({ fixture, spec, steps, lanes, snapshot, ...(walk ? { walk } : {}) }),
      };
    }
  }
}

/** What a scheduled run stopped by a hang observed before it: the calls that answered. */
function scheduledTrace(execution: ScheduledExecution): Trace {
  const observations = execution.lanes.flatMap((r) =>
    r.event.kind === 'call' && r.end.kind === 'observed'
      ? [{ step: r.step, lane: r.lane, event: r.event, observed: r.end.observed }]
      : [],
  );
  return { observations, snapshot: execution.snapshot };
}
