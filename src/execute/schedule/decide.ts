/**
 * The scheduler's decisions, pure: given the lanes still running, the virtual clock and the
 * drawn choices, what happens at the next grant; and how many grants in a row would go to the
 * same lane (so its worker may run that far without parking, see `lane-gate.ts`).
 *
 * One decision, in order:
 * 1. a blocked lane whose busy timeout has run out is told to give up (forced, no choice used);
 * 2. the candidates are the parked lanes and the blocked ones for which something changed since
 *    their last try (the epoch moved); with more than one, the next drawn choice picks;
 * 3. no candidate but blocked lanes: a stall; the clock jumps to the first busy timeout.
 *
 * Past the drawn choices every choice is 0, which keeps the last lane running. A lane that spins
 * on a lock another lane holds (a handler retrying SQLITE_BUSY) could then run for ever while the
 * holder, able to run, never gets a grant: the step would be reported as a livelock that no real
 * machine shows. So once `fairIn` grants have gone, every choice hands over to the next lane in
 * turn: a step that still does not finish then is a livelock under a fair scheduler too.
 *
 * A lane that slept yields. When the lane granted last waited on something other than microtasks
 * (a timer, I/O) since that grant, the choice at its next decision is counted from the next lane
 * round rather than from it: choice 0 (no switch drawn) hands over, and the drawn choices still
 * reach every candidate, the sleeper too. While a lane sleeps the others run; a handler that
 * backs off between retries of a lock error would otherwise keep every grant while the lane that
 * holds the lock never gets one. What the lane's code did decides it, never time, so a run replays.
 */
import { chooseLane } from './choose-lane.ts';

/** What a decision needs to know of one live lane. */
export interface LaneView {
  readonly lane: number;
  /** Callers pass only live lanes (parked or blocked); the wider type lets them pass their own records. */
  readonly status: 'parked' | 'blocked' | 'done' | 'crashed';
  readonly blockedAt: number;
  readonly blockedEpoch: number;
  readonly timeoutMs: number;
  /** Since its last grant, its code waited on something other than microtasks (a timer, I/O). */
  readonly slept?: boolean;
}

/** The next grant: to whom and why. */
export type Decision =
  | { readonly kind: 'giveUp'; readonly lane: number }
  | { readonly kind: 'choose'; readonly lane: number; readonly chose: boolean }
  | { readonly kind: 'stall'; readonly until: number; readonly lanes: readonly number[] };

/** A stall: no lane can run, every live lane is blocked until `until`. */
export type Stall = Extract<Decision, { kind: 'stall' }>;

/** Where the scheduler stands: the clock, the epoch, the drawn choices and how many are used. */
export interface SchedulerState {
  readonly clock: number;
  readonly epoch: number;
  readonly choices: readonly number[];
  /** Choices used so far. */
  readonly decision: number;
  /** The lane granted last. */
  readonly last: number | undefined;
  /** Grants left before every choice hands over to the next lane in turn; unset: never. */
  readonly fairIn?: number;
}

/** The next decision over `live` (not empty). */
export function decide(live: readonly LaneView[], at: SchedulerState): Decision {
  const expired = live.find((s) => s.status === 'blocked' && at.clock - s.blockedAt >= s.timeoutMs);
  if (expired) return { kind: 'giveUp', lane: expired.lane };
  const candidates = live.filter((s) => s.status === 'parked' || s.blockedEpoch < at.epoch);
  if (candidates.length === 0) {
    const until = Math.min(...live.map((b) => b.blockedAt + b.timeoutMs));
    return { kind: 'stall', until, lanes: live.map((b) => b.lane) };
  }
  const chose = candidates.length > 1;
  const fair = at.fairIn !== undefined && at.fairIn <= 0;
  const yields = chose && lastSlept(candidates, at.last);
  const drawn = chose ? (at.choices[at.decision] ?? 0) : 0;
  const choice = fair && chose ? 1 : drawn + (yields ? 1 : 0);
  return {
    kind: 'choose',
    lane: chooseLane(
      candidates.map((c) => c.lane),
      at.last,
      choice,
    ),
    chose,
  };
}

/** Whether the lane granted last is among `candidates` and slept since (its choice starts one on). */
export function lastSlept(candidates: readonly LaneView[], last: number | undefined): boolean {
  return candidates.some((c) => c.lane === last && c.slept === true);
}

/**
 * How many grants right after the one `_lane` is getting now (a statement run, at clock `at.clock`
 * already advanced) would go to `_lane` again, assuming each of its statements completes: its
 * worker may pass that many yield points without parking. `others` are the other live lanes;
 * once `_lane` completes a statement every blocked one is a candidate again. Stops before a
 * forced give-up and at `max`. Which lane it is does not matter, only how many run beside it.
 */
export function runAhead(
  _lane: number,
  others: readonly LaneView[],
  at: SchedulerState,
  max: number,
): number {
  let forcedAt = Number.POSITIVE_INFINITY;
  for (const s of others)
    if (s.status === 'blocked') forcedAt = Math.min(forcedAt, s.blockedAt + s.timeoutMs);
  if (others.length === 0) return Math.max(0, Math.min(max, forcedAt - at.clock));
  // No run-ahead into the fair stretch, where each choice hands the lane over.
  const limit = Math.max(0, Math.min(max, forcedAt - at.clock, at.fairIn ?? max));
  // `chooseLane` over the lane and the others, starting from it, keeps it exactly when the
  // choice is a whole number of turns round them: counted here without building the candidates.
  const lanes = others.length + 1;
  let decision = at.decision;
  let n = 0;
  while (n < limit) {
    // Past the drawn choices every choice is 0, which keeps the lane running: no need to look further.
    if (decision >= at.choices.length) return limit;
    if ((at.choices[decision] ?? 0) % lanes !== 0) break;
    decision++;
    n++;
  }
  return n;
}
