/** What the bench's raw loop measures, on either engine (`sqlite/raw-loop.ts`, `postgres/raw-loop.ts`). */

/** Steps replayed with none of the harness around them, and the time they took. */
export interface RawMeasure {
  readonly steps: number;
  readonly seconds: number;
  /** This process's CPU time (user + system) in the timed loops: what time-slicing cannot inflate. */
  readonly cpuSeconds: number;
}
