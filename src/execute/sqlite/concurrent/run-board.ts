/**
 * The board of one concurrent run, in shared memory: which phase the run is in, how many parts of
 * each phase are done and when each phase ended, and whether the run was aborted. A run's plain
 * steps and its groups' waves are phases, one after another (`run-plan.ts`); every worker of the
 * run holds its parts of them as one task (`concurrent-worker.ts`), waits on the board for each
 * part's phase, and the worker that finishes a phase's last part moves the board on and wakes
 * the others. So a run costs one message each way per worker, not one per batch and per lane,
 * and the hand-off between phases is a shared-memory wake-up.
 *
 * Layout: Int32 cells `phase`, `aborted` and `phases` (how many), then one Int32 per phase (parts
 * done), then one BigInt64 per phase (the instant it ended, ns on the shared clock).
 */

const PHASE = 0;
const ABORTED = 1;
const PHASES = 2;
const HEADER_CELLS = 3;

/** A board at phase 0 for a run of `phases` phases. */
export function createBoard(phases: number): SharedArrayBuffer {
  if (!Number.isSafeInteger(phases) || phases < 0)
    throw new RangeError(`a run board needs a whole number of phases (got ${phases})`);
  const board = new SharedArrayBuffer(endedOffset(phases) + 8 * phases);
  new Int32Array(board, 0, HEADER_CELLS)[PHASES] = phases;
  return board;
}

/** Byte offset of the phases' end instants: after the Int32 cells, aligned to 8. */
function endedOffset(phases: number): number {
  return Math.ceil((4 * (HEADER_CELLS + phases)) / 8) * 8;
}

function phasesOf(board: SharedArrayBuffer): number {
  return new Int32Array(board, 0, HEADER_CELLS)[PHASES] as number;
}

/**
 * Worker side: blocks until the board reaches `phase` (true) or the run is aborted (false). It
 * waits as long as earlier phases take: the main thread stops an item that outlives the call
 * budget and then aborts the board, which wakes every waiting worker.
 */
export function awaitPhase(board: SharedArrayBuffer, phase: number): boolean {
  const cells = new Int32Array(board, 0, HEADER_CELLS);
  for (;;) {
    if (Atomics.load(cells, ABORTED) !== 0) return false;
    const now = Atomics.load(cells, PHASE);
    if (now >= phase) return true;
    Atomics.wait(cells, PHASE, now);
  }
}

/**
 * Worker side: one part of `phase` is done. The last of its `parties` stamps the phase's end and
 * moves the board to the next phase, waking whoever waits for it.
 */
export function finishPart(board: SharedArrayBuffer, phase: number, parties: number): void {
  const phases = phasesOf(board);
  const done = new Int32Array(board, 4 * HEADER_CELLS, phases);
  if (Atomics.add(done, phase, 1) + 1 < parties) return;
  Atomics.store(
    new BigInt64Array(board, endedOffset(phases), phases),
    phase,
    process.hrtime.bigint(),
  );
  const cells = new Int32Array(board, 0, HEADER_CELLS);
  Atomics.store(cells, PHASE, phase + 1);
  Atomics.notify(cells, PHASE);
}

/** Either side: stops the run; every worker waiting for a phase returns, and none starts another part. */
export function abortBoard(board: SharedArrayBuffer): void {
  const cells = new Int32Array(board, 0, HEADER_CELLS);
  Atomics.store(cells, ABORTED, 1);
  Atomics.notify(cells, PHASE);
}

/** Whether the run was aborted. */
export function isAborted(board: SharedArrayBuffer): boolean {
  return Atomics.load(new Int32Array(board, 0, HEADER_CELLS), ABORTED) !== 0;
}

/** When `phase` ended, in `sharedClockMs()` terms; undefined when it has not. */
export function phaseEndedMs(board: SharedArrayBuffer, phase: number): number | undefined {
  const phases = phasesOf(board);
  if (phase < 0 || phase >= phases) return undefined;
  const at = Atomics.load(new BigInt64Array(board, endedOffset(phases), phases), phase);
  return at === 0n ? undefined : Number(at) / 1e6;
}
