/**
 * Where a crash or a store fault can land in a case, learned from the runs of its search: every
 * yield point and every write of every lane of every gated step any run reached. Each becomes a
 * plan (one crash, or one fault, in one step) that the search then explores schedule by schedule,
 * so an injection lands at every point under every interleaving within the bound. Pure.
 */
import type { Schedule, StepSchedule } from '../../types/schedule.ts';
import type { DecisionRecord } from '../../types/scheduled-trace.ts';

/** The points and writes each lane reached, the most over the runs noted. */
export class InjectionPoints {
  /** `step:lane` → most statements reached, most writes reached. */
  private readonly reached = new Map<string, { statements: number; writes: number }>();

  /** Notes one run's decisions. */
  note(decisions: readonly DecisionRecord[]): void {
    const run = new Map<string, { statements: number; writes: number }>();
    for (const d of decisions) {
      const c = d.candidates.find((x) => x.lane === d.lane);
      // A retry of a blocked statement is the same point again.
      if (!c || c.blocked || c.point !== 'statement') continue;
      const key = `${d.step}:${d.lane}`;
      const n = run.get(key) ?? { statements: 0, writes: 0 };
      n.statements++;
      if (c.write) n.writes++;
      run.set(key, n);
    }
    for (const [key, n] of run) {
      const most = this.reached.get(key) ?? { statements: 0, writes: 0 };
      this.reached.set(key, {
        statements: Math.max(most.statements, n.statements),
        writes: Math.max(most.writes, n.writes),
      });
    }
  }

  /**
   * One plan per injection: a crash at each yield point of each lane (0 before the call, one per
   * statement, the last before its reply) and a fault at each of its writes.
   */
  plans(): Schedule[] {
    const plans: Schedule[] = [];
    const sorted = [...this.reached.entries()].sort((a, b) => a[0].localeCompare(b[0]));
    for (const [key, n] of sorted) {
      const [step, lane] = key.split(':').map(Number) as [number, number];
      for (let at = 0; at <= n.statements + 1; at++)
        plans.push(inStep(step, { choices: [], crash: { lane, at } }));
      for (let at = 0; at < n.writes; at++)
        plans.push(inStep(step, { choices: [], fault: { lane, at } }));
    }
    return plans;
  }
}

/** A schedule with `entry` at `step` and nothing planned before it. */
function inStep(step: number, entry: StepSchedule): Schedule {
  return Array.from({ length: step + 1 }, (_, i) => (i === step ? entry : { choices: [] }));
}
