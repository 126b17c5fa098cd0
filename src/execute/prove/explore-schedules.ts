/**
 * The prover's search: every schedule of one case, depth first over the scheduler's decisions,
 * within a preemption bound, with a reduction that never runs a prefix equivalent to one whose
 * every continuation was already run. Pure logic over a `run` function (the caller executes and
 * judges a schedule); it owns no database and no thread.
 *
 * Stateless, as CHESS: each schedule runs from the start, forcing a prefix of choices and then
 * running on without a switch (choice 0 keeps the last lane), which reveals every decision after
 * the prefix with its candidates. Backtracking goes deepest first: at each decision of a run past
 * its forced prefix, every other candidate is a child, tried unless
 * - it costs more preemptions than the bound allows (a switch away from a lane that could go on);
 * - reduction is on and its prefix is in the happens-before class of a node already finished with
 *   at least the budget it would have (`trace-class.ts`): that node's continuations are this
 *   one's, and were all run;
 * - a run's trace hash was seen already (the same run again): its decisions are not expanded twice.
 *
 * Branch and bound: a failing schedule lowers the bound to one below its preemptions, so the
 * search ends with the failure of fewest preemptions, the easiest to read. Crash and fault plans
 * (`plans`) are explored one after the other, each with the same bound.
 */
import type { Engine } from '../../handlers/engine.ts';
import type { Schedule } from '../../types/schedule.ts';
import type { DecisionRecord } from '../../types/scheduled-trace.ts';
import { preempts, scheduleOf } from './choice-path.ts';
import { isPlainRead, type Transition } from './dependency.ts';
import { prefixClassKeys } from './trace-class.ts';

/** What the search needs to know of one run. */
export interface ProbedRun {
  readonly decisions: readonly DecisionRecord[];
  readonly traceHash: string;
  readonly failed: boolean;
}

/** How far to search. */
export interface ExploreOptions {
  /** Most preemptions a schedule may have. */
  readonly preemptions: number;
  /** Skip prefixes equivalent to finished ones (partial-order reduction). */
  readonly reduce: boolean;
  /** Whose dependency relation the reduction uses. */
  readonly engine: Engine;
  /** Crash and fault plans (schedules whose choices are ignored), each searched. Default: none, `[[]]`. */
  readonly plans?: readonly Schedule[];
  /** Most schedules run; reaching it leaves the search incomplete. Default unlimited. */
  readonly schedulesMax?: number;
}

/** A failing schedule, the fewest preemptions found. */
export interface FoundFailure<R> {
  readonly schedule: Schedule;
  readonly preemptions: number;
  readonly run: R;
}

/** What a search came to. */
export interface Exploration<R> {
  /** Schedules run. */
  readonly runs: number;
  /** Branches not run because reduction showed an equivalent one finished. */
  readonly pruned: number;
  /** Runs whose trace hash had been seen (their decisions not expanded again). */
  readonly duplicates: number;
  /** Branches not run because they would pass the preemption bound. */
  readonly beyondBound: number;
  /** False when `schedulesMax` stopped the search. */
  readonly complete: boolean;
  readonly failure?: FoundFailure<R>;
}

/** Searches the schedules of one case; `run` executes and judges one schedule. */
export async function exploreSchedules<R extends ProbedRun>(
  run: (schedule: Schedule) => Promise<R>,
  options: ExploreOptions,
): Promise<Exploration<R>> {
  const search = new Search(run, options);
  for (const plan of options.plans ?? [[]]) {
    if (search.stopped) break;
    await search.plan(plan);
  }
  return search.result();
}

/** One run seen through the reduction: its transitions, prefix classes and choosing decisions. */
interface Probed<R> {
  readonly run: R;
  readonly transitions: Transition[];
  readonly keys: string[];
  /** Record index of each choosing decision. */
  readonly choosing: number[];
}

/** A node of the search as the reduction knows it: its prefix's class and the lane that ran last. */
interface NodeKey {
  readonly key: string;
  readonly last: string;
}

class Search<R extends ProbedRun> {
  private bound: number;
  private runs = 0;
  private pruned = 0;
  private duplicates = 0;
  private beyondBound = 0;
  private complete = true;
  private failure: FoundFailure<R> | undefined;
  private seen = new Set<string>();
  /**
   * Finished nodes of the plan being searched: by class key, for each last lane, the budget of
   * preemptions left that its continuations were all run with.
   */
  private done = new Map<string, Map<string, number>>();
  private current: Schedule = [];

  constructor(
    private readonly runSchedule: (schedule: Schedule) => Promise<R>,
    private readonly options: ExploreOptions,
  ) {
    this.bound = options.preemptions;
  }

  get stopped(): boolean {
    return this.bound < 0 || !this.complete;
  }

  async plan(plan: Schedule): Promise<void> {
    this.current = plan;
    this.done = new Map();
    const root = await this.probe(scheduleOf([], [], plan), 0);
    if (root) await this.expand(root, 0, 0);
  }

  result(): Exploration<R> {
    const { runs, pruned, duplicates, beyondBound, complete, failure } = this;
    return { runs, pruned, duplicates, beyondBound, complete, ...(failure ? { failure } : {}) };
  }

  /** Runs `schedule`; the run to expand, or undefined when it failed, repeated, or the limit is reached. */
  private async probe(schedule: Schedule, preemptions: number): Promise<Probed<R> | undefined> {
    if (this.runs >= (this.options.schedulesMax ?? Number.POSITIVE_INFINITY)) {
      this.complete = false;
      return undefined;
    }
    const run = await this.runSchedule(schedule);
    this.runs++;
    if (run.failed) {
      this.failure = { schedule, preemptions, run };
      this.bound = preemptions - 1;
      return undefined;
    }
    const hashKey = `${JSON.stringify(this.current)}|${run.traceHash}`;
    if (this.seen.has(hashKey)) {
      this.duplicates++;
      return undefined;
    }
    this.seen.add(hashKey);
    const transitions = run.decisions.map((d) => this.transition(d, d.lane));
    const choosing: number[] = [];
    for (const [i, d] of run.decisions.entries()) if (d.chose) choosing.push(i);
    return { run, transitions, keys: prefixClassKeys(transitions), choosing };
  }

  /** Backtracks over `p`'s choosing decisions from `from` on (the ones it was not forced at). */
  private async expand(p: Probed<R>, from: number, usedBefore: number): Promise<void> {
    const { decisions } = p.run;
    const used: number[] = [];
    let u = usedBefore;
    for (let k = 0; k < p.choosing.length; k++) {
      used.push(u);
      const d = decisions[p.choosing[k] as number] as DecisionRecord;
      if (k >= from && preempts(d, d.lane)) u++;
    }
    // Nodes past the forced prefix already finished elsewhere (an equivalent prefix): cut there.
    let cut = p.choosing.length;
    if (this.options.reduce)
      for (let k = from + 1; k < p.choosing.length; k++) {
        if (this.isDone(this.nodeKey(p, k), this.bound - (used[k] as number))) {
          cut = k;
          break;
        }
      }
    for (let k = p.choosing.length - 1; k >= from; k--) {
      const r = p.choosing[k] as number;
      const d = decisions[r] as DecisionRecord;
      for (const c of d.candidates) {
        if (c.lane === d.lane) continue;
        if (this.stopped) return;
        const cost = (used[k] as number) + (preempts(d, c.lane) ? 1 : 0);
        if (cost > this.bound) {
          this.beyondBound++;
          continue;
        }
        if (k >= cut) {
          this.pruned++;
          continue;
        }
        if (this.options.reduce && this.covered(p, r, c.lane, cost)) {
          this.pruned++;
          continue;
        }
        const lanes = p.choosing.slice(0, k).map((i) => (decisions[i] as DecisionRecord).lane);
        const child = await this.probe(
          scheduleOf(decisions, [...lanes, c.lane], this.current),
          cost,
        );
        if (child) await this.expand(child, k + 1, cost);
      }
      if (k < cut) this.finish(this.nodeKey(p, k), this.bound - (used[k] as number));
    }
  }

  /** Whether the prefix up to record `r` with `lane` granted there is in a finished node's class. */
  private covered(p: Probed<R>, r: number, lane: number, cost: number): boolean {
    const d = p.run.decisions[r] as DecisionRecord;
    const child = [...p.transitions.slice(0, r), this.transition(d, lane)];
    return this.isDone(
      { key: prefixClassKeys(child)[child.length] as string, last: `${lane}` },
      this.bound - cost,
    );
  }

  /** The node before `p`'s `k`-th choosing decision: its prefix's class and its last lane. */
  private nodeKey(p: Probed<R>, k: number): NodeKey {
    const r = p.choosing[k] as number;
    return {
      key: p.keys[r] as string,
      last: r > 0 ? `${(p.transitions[r - 1] as Transition).lane}` : '-',
    };
  }

  /** Records that every continuation of `node` with at most `budget` preemptions was run. */
  private finish(node: NodeKey, budget: number): void {
    let byLast = this.done.get(node.key);
    if (!byLast) {
      byLast = new Map();
      this.done.set(node.key, byLast);
    }
    byLast.set(node.last, Math.max(byLast.get(node.last) ?? -1, budget));
  }

  /**
   * Whether every continuation of `node` with at most `budget` preemptions was run from a node in
   * its class. From the same state, a continuation's preemptions depend on the last lane only at
   * its first grant, so a node finished with another last lane covers one budget less.
   */
  private isDone(node: NodeKey, budget: number): boolean {
    const byLast = this.done.get(node.key);
    if (!byLast) return false;
    for (const [last, covered] of byLast)
      if (covered >= budget + (last === node.last ? 0 : 1)) return true;
    return false;
  }

  private transition(d: DecisionRecord, lane: number): Transition {
    const c = d.candidates.find((x) => x.lane === lane);
    // A lane the plan crashes in this step may die at this grant: its rollback frees locks.
    const crashes = this.current[d.step]?.crash?.lane === lane;
    const read =
      c !== undefined && !crashes && d.grant !== 'crash' && isPlainRead(this.options.engine, c);
    return { step: d.step, lane, read: lane === d.lane ? read && d.grant === 'run' : read };
  }
}
