/**
 * The release barrier of a concurrent group: a SharedArrayBuffer of two cells, `arrived` and
 * `open` (plus the start instant). Each lane's worker counts itself in and sleeps on `open`
 * (`Atomics.wait`); the last one to arrive opens it and wakes the others (`Atomics.notify`).
 * Every lane is then already loaded and connected when the group starts, and all start at one
 * instant (`GATE_START_DELAY_NS`), so the calls overlap instead of trailing each other by a
 * message round trip each.
 *
 * The same barrier makes a broadcast possible: `parties` tasks that all wait for each other
 * cannot share a worker, so each of `parties` idle workers gets exactly one.
 */
import type { GateRef } from './protocol.ts';

const ARRIVED = 0;
const OPEN = 1;

/**
 * How far ahead of the last arrival the group starts, in ns. A lane sleeping in `Atomics.wait`
 * needs a CPU again once woken: on a VM an idle virtual CPU can take a good part of a
 * millisecond, and on a busy machine the woken thread often preempts the one that woke it, so
 * a lane that started on arrival would be finished before the others ran. Every lane, the last
 * one too, therefore spins until one shared instant a little after everyone's wake-up.
 * Measured on the 2-core development VM under load: 1 ms roughly tripled how often a
 * duplicate pair really overlapped, against starting at once; 0.5 and 2 ms did worse.
 */
export const GATE_START_DELAY_NS = 1_000_000n;

/** A closed barrier for `parties` tasks. Create one per group; it is not reusable. */
export function createGate(parties: number): GateRef {
  if (!Number.isSafeInteger(parties) || parties < 1)
    throw new RangeError(`a gate needs a positive number of parties (got ${parties})`);
  return { buffer: new SharedArrayBuffer(16), parties };
}

/**
 * Arrives at the barrier and blocks this thread until every party has, then until the shared
 * start instant (worker side only: the main thread must not block). Returns false when
 * `limitMs` passed first, so a missing party is reported instead of hanging.
 */
export function passGate(gate: GateRef, limitMs: number): boolean {
  const cells = new Int32Array(gate.buffer, 0, 2);
  // The start instant, in ns on the shared clock, lives in bytes 8–15.
  const start = new BigInt64Array(gate.buffer, 8, 1);
  if (Atomics.add(cells, ARRIVED, 1) + 1 >= gate.parties) {
    Atomics.store(start, 0, process.hrtime.bigint() + GATE_START_DELAY_NS);
    Atomics.store(cells, OPEN, 1);
    Atomics.notify(cells, OPEN);
  } else {
    const deadline = performance.now() + limitMs;
    while (Atomics.load(cells, OPEN) === 0) {
      const left = deadline - performance.now();
      if (left <= 0) return false;
      Atomics.wait(cells, OPEN, 0, left);
    }
  }
  const at = Atomics.load(start, 0);
  while (process.hrtime.bigint() < at) {
    // Spin: sleeping again would cost the very wake-up latency this delay absorbs.
  }
  return true;
}
