/**
 * A scheduled run's steps, on any engine: a concurrent group runs gated under its schedule entry
 * (`gated-step.ts`), and so does a plain call whose entry plans a crash or a fault; every other
 * step has nothing to decide, so the coordinator runs it itself, on its own connection, and its
 * statements go into the trace as lane 0's. A scope change takes effect at once. The engine
 * gives the steps (`StepsPort`); what to do after a hang stays the engine's.
 */
import { type Event, type Step, unsentOutcome } from '../../model/events.ts';
import type { Observed } from '../../model/outcome.ts';
import type { Principal } from '../../model/world.ts';
import { type Schedule, type StepSchedule, stepScheduleAt } from '../../types/schedule.ts';
import type { LaneRecord, TraceEntry } from '../../types/scheduled-trace.ts';
import type { Task } from '../runtime/task.ts';
import { describeWorld } from './describe-world.ts';
import type { LoggedStatement } from './statement-end.ts';

/** A step the coordinator runs itself. */
export type PlainStep = Exclude<Step, { kind: 'concurrent' }>;

/** What a plain call did: its outcome and the statements it ran. */
export interface PlainCall {
  readonly observed: Observed;
  readonly log: readonly LoggedStatement[];
}

/** What the run's steps need of the engine. */
export interface StepsPort {
  /** The trace the run writes. */
  readonly entries: TraceEntry[];
  /** The principals as they stand now (scope changes replace them). */
  principals(): readonly Principal[];
  /** The operation's noun, for the lanes view (`automation`). */
  readonly noun: string;
  /** Runs a gated step with the engine's lanes; each lane's record. */
  gated(step: number, events: readonly Event[], plan: StepSchedule): Task<LaneRecord[]>;
  /** A revoke or restore takes effect. */
  applyScope(client: number, granted: boolean): void;
  /** Calls the handler on the coordinator's connection, as `principal`. */
  call(step: number, principal: Principal, event: Extract<Step, { kind: 'call' }>): Task<PlainCall>;
  /** Applies a world event on the coordinator's connection; the statements it ran. */
  world(
    step: number,
    event: Exclude<PlainStep, { kind: 'call' | 'revoke' | 'restore' }>,
  ): Task<readonly LoggedStatement[]>;
}

/** Runs `steps` under `schedule`, appending each step's lane records to `records`. */
export function* runSteps(
  port: StepsPort,
  steps: readonly Step[],
  schedule: Schedule,
  records: LaneRecord[],
): Task<void> {
  for (const [i, s] of steps.entries()) {
    const plan = stepScheduleAt(schedule, i);
    if (s.kind === 'concurrent' || (s.kind === 'call' && (plan.crash || plan.fault)))
      records.push(...(yield* port.gated(i, s.kind === 'concurrent' ? s.events : [s], plan)));
    else records.push(yield* runPlainStep(port, i, s));
  }
}

/**
 * Runs a plain step on the coordinator: a scope change takes effect at once, a call carries the
 * principal as it stands; its statements go into the trace as lane 0's.
 */
function* runPlainStep(port: StepsPort, step: number, event: PlainStep): Task<LaneRecord> {
  // No closures here: one per plain step was a measurable share of a run (tsx names each one).
  const at = port.entries.length;
  switch (event.kind) {
    case 'revoke':
    case 'restore': {
      port.applyScope(event.client, event.kind === 'restore');
      note(port, step, 'scope', `${event.kind} client ${event.client + 1}`);
      return plainRecord(step, event, { kind: 'applied' }, at);
    }
    case 'call': {
      const unsent = unsentOutcome(event);
      if (unsent)
        return plainRecord(step, event, { kind: 'observed', observed: unsent, faulted: false }, at);
      const principal = port.principals()[event.client];
      if (!principal)
        throw new RangeError(`step ${step + 1}: no principal for client ${event.client}`);
      const { observed, log } = yield* port.call(step, principal, event);
      logStatements(port, step, log);
      return plainRecord(step, event, { kind: 'observed', observed, faulted: false }, at);
    }
    default:
      note(port, step, 'world', describeWorld(event, port.noun));
      logStatements(port, step, yield* port.world(step, event));
      return plainRecord(step, event, { kind: 'applied' }, at);
  }
}

/** A plain step's lane record: lane 0, its effect at trace entry `at`. */
function plainRecord(
  step: number,
  event: PlainStep,
  end: LaneRecord['end'],
  at: number,
): LaneRecord {
  return { step, lane: 0, event, end, effectAt: at };
}

/** A trace entry for what a plain step did outside any statement (a scope change, a world event). */
function note(port: StepsPort, step: number, point: 'scope' | 'world', sql: string): void {
  port.entries.push({ step, lane: 0, point, grant: 'run', sql, result: 'ok' });
}

function logStatements(port: StepsPort, step: number, log: readonly LoggedStatement[]): void {
  // Each entry built in one literal, keys in the order a spread gave them (a case file shows them).
  for (const s of log) {
    const { sql, params, result } = s;
    const entry: TraceEntry = params
      ? { step, lane: 0, point: 'statement', grant: 'run', sql, params, result }
      : { step, lane: 0, point: 'statement', grant: 'run', sql, result };
    if (s.durable) entry.durable = true;
    port.entries.push(entry);
  }
}
