/**
 * What a counterexample's timeline draws, as plain data: lanes on a shared time axis, each call a
 * bar from send to answer with its outcome, the statements inside it, the order the checker
 * built, the database at the end and the commands that reproduce it. `build-timeline.ts` computes
 * it (pure); `render-timeline-html.ts` only draws it, so everything a reader sees is tested here.
 */

/** What the time axis counts: steps (no clock recorded), ms of a real run, or scheduler grants. */
export type AxisUnit = 'step' | 'ms' | 'grant';

/** The colour class of a bar: what the client saw, or what happened to the call. */
export type OutcomeClass =
  | 'fresh'
  | 'replayed'
  | 'refused'
  | 'keyReuse'
  | 'invalid'
  | 'error'
  | 'unexpected'
  | 'notSent'
  | 'lost'
  | 'crashed'
  | 'hang'
  | 'world'
  | 'unknown';

/** One row of the picture: a connection (lane of a group) or, in a soak, a client. */
export interface TimelineLane {
  /** The lane's key: the lane index, or the soak's client (-1 for the harness). */
  readonly key: number;
  readonly label: string;
}

/** A statement (or another point the scheduler granted) inside a call, at a grant on the axis. */
export interface TimelineTick {
  readonly at: number;
  /** `run`, `fault`, `crash` or `giveUp`, as granted. */
  readonly grant: string;
  /** `start`, `statement`, `reply`, … */
  readonly point: string;
  /** The full statement text. */
  readonly sql?: string;
  /** Its bound parameters, as text, in order. */
  readonly params?: readonly string[];
  /** `ok`, `blocked` (a lock wait) or the SQLite code raised. */
  readonly result?: string;
  /** The statement made writes durable (a commit). */
  readonly durable?: boolean;
  /** The point as one short phrase: `COMMIT [commit]`, `[CRASH] before …`. */
  readonly label: string;
}

/** One call or world event, drawn as a bar. */
export interface TimelineBar {
  /** The history entry id, when the run recorded one; else a running number. */
  readonly id: number;
  /** 0-based step and lane in the sequence. */
  readonly step: number;
  readonly lane: number;
  /** The row it is drawn in (a `TimelineLane.key`). */
  readonly row: number;
  /** `step 2 lane 1`. */
  readonly place: string;
  /** The call or event in words, arguments included. */
  readonly label: string;
  readonly start: number;
  /** Where the bar's body ends on the axis. */
  readonly end: number;
  /** The answer never came back (lost response, crash, no completion): drawn open to the right. */
  readonly open: boolean;
  readonly outcomeClass: OutcomeClass;
  /** What the client saw, in words; absent when it saw nothing. */
  readonly outcome?: string;
  /** What the contract gives instead, where that differs from `outcome`. */
  readonly expected?: string;
  /** The contract rule the call breaks, when it is to blame. */
  readonly rule?: string;
  readonly ruleText?: string;
  /** The checker could not place this call after the longest order that fits. */
  readonly stuck: boolean;
  /** Something went wrong here: an outcome that differs, a hang, a blamed stuck call. */
  readonly wrong: boolean;
  /** What the harness did to the call besides sending it (fault, crash, failing store). */
  readonly notes: readonly string[];
  /** Scheduled mode: every statement of the call, in grant order. */
  readonly ticks: readonly TimelineTick[];
}

/** A point of the harness itself on the axis: a stall, every lane blocked. */
export interface TimelineMarker {
  readonly at: number;
  readonly label: string;
}

/** One operation of an order, for the verdict. */
export interface OrderItem {
  readonly place: string;
  readonly label: string;
  readonly outcome?: string;
  /** What the contract gives, where the outcome differs from it. */
  readonly expected?: string;
}

/** A call the checker could not place, with what the contract gives and the rule it breaks. */
export interface StuckItem extends OrderItem {
  readonly rule?: string;
  readonly ruleText?: string;
  /** Its outcome contradicts the contract after the order (the one a reader should look at). */
  readonly blamed: boolean;
}

/** The linearizability verdict drawn on top. */
export type TimelineVerdict =
  /** No serial order explains the history: the longest one built, and the calls left over. */
  | {
      readonly kind: 'illegal';
      readonly order: readonly OrderItem[];
      /** The full order's length when `order` holds only its tail. */
      readonly orderLength: number;
      readonly stuck: readonly StuckItem[];
      readonly text: string;
    }
  /** The checker stopped at a limit before a verdict. */
  | { readonly kind: 'unknown'; readonly text: string }
  /** A serial order the verdict rests on: it explains the history (failures, if any, are others). */
  | { readonly kind: 'order'; readonly order: readonly OrderItem[]; readonly text: string }
  /** The file holds no run to judge (a scenario): what it expects instead. */
  | { readonly kind: 'notRun'; readonly text: string };

/** One failure in words. */
export interface FailureLine {
  readonly where: string;
  readonly rule?: string;
  readonly text: string;
}

/** One row of the final database that differs, or that a case file expects. */
export interface DatabaseRow {
  readonly what: string;
  readonly key: string;
  readonly expected?: string;
  readonly found?: string;
}

/** The database at the end. */
export interface TimelineDatabase {
  /** One line summing it up: `no difference`, `not compared: …`, `2 differences`. */
  readonly summary: string;
  readonly rows: readonly DatabaseRow[];
}

/** Everything the page draws. */
export interface Timeline {
  readonly title: string;
  readonly description: string;
  readonly handlerName: string;
  readonly mode: string;
  /** `failed`, `passed` or `not run` (a case file without a run). */
  readonly status: 'failed' | 'passed' | 'not run';
  readonly axis: { readonly unit: AxisUnit; readonly start: number; readonly end: number };
  readonly lanes: readonly TimelineLane[];
  readonly bars: readonly TimelineBar[];
  readonly markers: readonly TimelineMarker[];
  readonly verdict: TimelineVerdict;
  readonly failures: readonly FailureLine[];
  /** What the user can change if they believe the handler is right (`triage.ts`); absent when nothing failed. */
  readonly triage?: string;
  readonly database: TimelineDatabase;
  readonly reproduce: readonly string[];
  /** Where the timeline comes from, when it is part of a larger history (a soak's partition). */
  readonly scope?: string;
}
