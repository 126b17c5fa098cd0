/**
 * The release barrier of a concurrent group: a SharedArrayBuffer of three cells, `arrived`,
 * `open` and `awake`, and two instants, when the gate opened and when the group starts. Each
 * lane's worker counts itself in and sleeps on `open` (`Atomics.wait`); the last one to arrive
 * opens it and wakes the others (`Atomics.notify`). Every lane is then already loaded and
 * connected when the group starts, and all start at one instant, so the calls overlap instead of
 * trailing each other by a message round trip each.
 *
 * The start instant. A lane sleeping in `Atomics.wait` needs a CPU again once woken: on a VM an
 * idle virtual CPU can take a good part of a millisecond, and on a busy machine the woken thread
 * often preempts the one that woke it, so a lane that started on arrival would be finished
 * before the others ran. Every lane therefore counts itself `awake` once back on a CPU and spins;
 * the one that makes every party awake sets the start a little later (`GATE_SETTLE_NS`, so every
 * spinning lane sees it first), and no lane waits past `GATE_START_DELAY_NS` after the opening,
 * whoever is still asleep. The fixed delay alone (every lane spinning to one instant 1 ms after
 * the opening) spent a millisecond per lane per group even when every lane was awake at once.
 *
 * The same barrier makes a broadcast possible: `parties` tasks that all wait for each other
 * cannot share a worker, so each of `parties` idle workers gets exactly one.
 */
import type { GateRef } from './protocol.ts';

const ARRIVED = 0;
const OPEN = 1;
const AWAKE = 2;
/** Byte offsets of the instants, in ns on the shared clock (BigInt64): opened, start. */
const OPENED_BYTE = 16;
const START_BYTE = 24;

/**
 * The latest a group starts after its last arrival, in ns, when a lane is still not back on a
 * CPU. Measured on the 2-core development VM under load: a fixed 1 ms roughly tripled how often
 * a duplicate pair really overlapped, against starting at once; 0.5 and 2 ms did worse.
 */
export const GATE_START_DELAY_NS = 1_000_000n;

/** How long after the last lane is awake the group starts, in ns. */
export const GATE_SETTLE_NS = 20_000n;

/** A closed barrier for `parties` tasks. Create one per group; it is not reusable. */
export function createGate(parties: number): GateRef {
  if (!Number.isSafeInteger(parties) || parties < 1)
    throw new RangeError(`a gate needs a positive number of parties (got ${parties})`);
  return { buffer: new SharedArrayBuffer(32), parties };
}

/**
 * Arrives at the barrier and blocks this thread until every party has, then until the shared
 * start instant (worker side only: the main thread must not block). Returns false when
 * `limitMs` passed first, so a missing party is reported instead of hanging.
 */
export function passGate(gate: GateRef, limitMs: number): boolean {
  const cells = new Int32Array(gate.buffer, 0, 3);
  const opened = new BigInt64Array(gate.buffer, OPENED_BYTE, 1);
  const start = new BigInt64Array(gate.buffer, START_BYTE, 1);
  if (Atomics.add(cells, ARRIVED, 1) + 1 >= gate.parties) {
    Atomics.store(opened, 0, process.hrtime.bigint());
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
  if (Atomics.add(cells, AWAKE, 1) + 1 >= gate.parties)
    Atomics.store(start, 0, process.hrtime.bigint() + GATE_SETTLE_NS);
  const latest = Atomics.load(opened, 0) + GATE_START_DELAY_NS;
  for (;;) {
    // Spin: sleeping again would cost the very wake-up latency this start absorbs.
    const now = process.hrtime.bigint();
    if (now >= latest) return true;
    const at = Atomics.load(start, 0);
    if (at !== 0n && now >= at) return true;
  }
}
