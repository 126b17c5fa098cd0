/**
 * The shared memory through which the parts of one concurrent run (`run-plan.ts`) meet, and
 * through which the main thread watches them. One board per runner, cleared before each run.
 *
 * - **Waves**: three Int32 cells per wave, `arrived`, `ready`, `done`. A part arrives, and sleeps
 *   (`Atomics.wait`, after a short spin) until all `width` have; then it counts itself ready and
 *   spins until all are. The second count is what makes lanes overlap: the last part to arrive
 *   is usually part 0, running hot, while the others are waking from a futex, which on a VM
 *   takes tens to hundreds of µs; without it part 0 would be done before they ran. Nobody spins
 *   longer than the others' wake-up (no fixed delay), and past `READY_SPIN_NS` a part sleeps in
 *   short slices, so parts spinning on both cores of a small machine do not keep a woken one off
 *   the CPU for long. `done` counts finished lanes; part 0 waits for it (`join`).
 * - **Abort**: one cell. Set by a part whose operation failed, or by the main thread when it
 *   stops a hung call; every wait gives up on seeing it (waits sleep in slices of at most
 *   `WAIT_SLICE_MS` and are woken by `abort`).
 * - **Running**: per part, the step and lane of the operation it is running and since when (ns
 *   on the shared clock, 0 when none), for the main thread's hang watch (`hang-watch.ts`).
 * - **Journal**: per part, one line per finished operation (`part-journal.ts`), readable by the
 *   main thread even after the part's worker was terminated.
 */

/** What crosses to the workers: the buffers themselves (shared, not copied). */
export interface LaneBoardRef {
  /** Int32: [abort, then `arrived`, `ready`, `done` per wave]. */
  readonly control: SharedArrayBuffer;
  /** Per part, 16 bytes: Int32 step, Int32 lane, BigInt64 since. */
  readonly running: SharedArrayBuffer;
  /** Per part: Int32 length in bytes, then UTF-8 lines. */
  readonly journals: readonly SharedArrayBuffer[];
}

const ABORT = 0;
const ARRIVED = 0;
const READY = 1;
const DONE = 2;
const WAVE_CELLS = 3;

/** Spin before sleeping at arrival and join, in ns: covers a neighbour a few µs behind. */
const ARRIVE_SPIN_NS = 30_000n;
/**
 * Spin while waiting for everyone to be ready, in ns, before sleeping in slices. A part that
 * sleeps misses the start by a futex wake-up, so the lanes overlap less; 1 ms, the old gate's
 * fixed spin, as a ceiling (it is only spent while a lane is late). 0.2 ms used less CPU (3.5
 * against 5.9 CPU-s per 1000 runs, one noisy A/B at load 8-9); whether it lost overlap could
 * not be told apart from load in five-seed kill sweeps, so the old gate's value stays.
 */
const READY_SPIN_NS = 1_000_000n;
/** Longest single sleep of a wait, in ms, so an abort is seen even without a wake-up. */
const WAIT_SLICE_MS = 20;
/** Sleep slice once the ready spin is over, in ms. */
const READY_SLICE_MS = 0.05;

/** Bytes of journal per part (reserved, not touched until written). */
export const JOURNAL_BYTES = 8 * 1024 * 1024;

/** The main thread's board: allocates once, grows the wave cells when a run needs more. */
export class LaneBoard {
  private ref: LaneBoardRef;

  constructor(parts: number) {
    this.ref = {
      control: new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * (1 + 16 * WAVE_CELLS)),
      running: new SharedArrayBuffer(16 * parts),
      journals: Array.from({ length: parts }, () => new SharedArrayBuffer(JOURNAL_BYTES)),
    };
  }

  /** A cleared board for a run with `waves` barriers and `parts` parts. Every part must be idle. */
  prepare(waves: number, parts: number): LaneBoardRef {
    const cells = 1 + waves * WAVE_CELLS;
    if (this.ref.control.byteLength < cells * Int32Array.BYTES_PER_ELEMENT)
      this.ref = { ...this.ref, control: new SharedArrayBuffer(cells * 8) };
    else new Int32Array(this.ref.control, 0, cells).fill(0);
    new BigInt64Array(this.ref.running).fill(0n);
    for (let p = 0; p < parts; p++)
      new Int32Array(this.ref.journals[p] as SharedArrayBuffer, 0, 1)[0] = 0;
    return this.ref;
  }
}

/** Whether the run was aborted. */
export function aborted(ref: LaneBoardRef): boolean {
  return Atomics.load(new Int32Array(ref.control), ABORT) !== 0;
}

/** Aborts the run and wakes every part waiting on the board. Any thread. */
export function abortRun(ref: LaneBoardRef): void {
  const cells = new Int32Array(ref.control);
  Atomics.store(cells, ABORT, 1);
  for (let i = 0; i < cells.length; i++) Atomics.notify(cells, i);
}

/** Meets the other parts of `wave`; false when the run was aborted or `limitMs` passed. */
export function meet(ref: LaneBoardRef, wave: number, width: number, limitMs: number): boolean {
  const cells = new Int32Array(ref.control);
  const base = 1 + wave * WAVE_CELLS;
  const deadline = performance.now() + limitMs;
  if (Atomics.add(cells, base + ARRIVED, 1) + 1 >= width) Atomics.notify(cells, base + ARRIVED);
  else if (!waitFor(cells, base + ARRIVED, width, deadline, ARRIVE_SPIN_NS, WAIT_SLICE_MS))
    return false;
  if (Atomics.add(cells, base + READY, 1) + 1 >= width) {
    Atomics.notify(cells, base + READY);
    return true;
  }
  return waitFor(cells, base + READY, width, deadline, READY_SPIN_NS, READY_SLICE_MS);
}

/** Counts this part's lane of `wave` done. */
export function laneDone(ref: LaneBoardRef, wave: number, width: number): void {
  const cells = new Int32Array(ref.control);
  const at = 1 + wave * WAVE_CELLS + DONE;
  if (Atomics.add(cells, at, 1) + 1 >= width) Atomics.notify(cells, at);
}

/** Waits until every lane of `wave` is done; false when aborted or `limitMs` passed. */
export function join(ref: LaneBoardRef, wave: number, width: number, limitMs: number): boolean {
  const cells = new Int32Array(ref.control);
  const at = 1 + wave * WAVE_CELLS + DONE;
  return waitFor(cells, at, width, performance.now() + limitMs, ARRIVE_SPIN_NS, WAIT_SLICE_MS);
}

/** Spins `spinNs`, then sleeps in slices of `sliceMs`, until `cells[at] >= want`. */
function waitFor(
  cells: Int32Array,
  at: number,
  want: number,
  deadline: number,
  spinNs: bigint,
  sliceMs: number,
): boolean {
  const spinUntil = process.hrtime.bigint() + spinNs;
  for (;;) {
    const seen = Atomics.load(cells, at);
    if (seen >= want) return true;
    if (Atomics.load(cells, ABORT) !== 0) return false;
    if (process.hrtime.bigint() < spinUntil) continue;
    const left = deadline - performance.now();
    if (left <= 0) return false;
    Atomics.wait(cells, at, seen, Math.min(left, sliceMs));
  }
}

/** Marks part `part` as running the operation at `step`, `lane` from now. */
export function markRunning(ref: LaneBoardRef, part: number, step: number, lane: number): void {
  const ints = new Int32Array(ref.running, part * 16, 2);
  Atomics.store(ints, 0, step);
  Atomics.store(ints, 1, lane);
  Atomics.store(new BigInt64Array(ref.running, part * 16 + 8, 1), 0, process.hrtime.bigint());
}

/** Marks part `part` as between operations. */
export function markIdle(ref: LaneBoardRef, part: number): void {
  Atomics.store(new BigInt64Array(ref.running, part * 16 + 8, 1), 0, 0n);
}

/** What part `part` is running and since when (ns on the shared clock), if anything. */
export function runningOf(
  ref: LaneBoardRef,
  part: number,
): { readonly step: number; readonly lane: number; readonly sinceNs: bigint } | undefined {
  const sinceNs = Atomics.load(new BigInt64Array(ref.running, part * 16 + 8, 1), 0);
  if (sinceNs === 0n) return undefined;
  const ints = new Int32Array(ref.running, part * 16, 2);
  return { step: Atomics.load(ints, 0), lane: Atomics.load(ints, 1), sinceNs };
}
